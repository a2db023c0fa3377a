/** POST /interpolate (SPEC 4.1). */
import * as z from 'zod';
import { identifier, powerKw, seriesValue } from './bounds';

export const INTERPOLATION_MODES = ['fill_missing_blocks', 'quality_enhancement'] as const;

export const InterpolationRequest = z.object({
  type: z.string().trim().min(1).max(40).default('generic'),
  mode: z.enum(INTERPOLATION_MODES).default('fill_missing_blocks'),
  data: z
    .array(z.object({ timestamp: z.string().min(1), value: seriesValue().nullable() }))
    .min(3, { error: 'must hold at least 3 rows' }),
  processing_options: z
    .object({
      confidence_threshold: z.number().min(0).max(1).default(0),
      seasonal_adjustment: z.boolean().default(true),
      weather_correlation: z.boolean().default(false),
      max_gap_hours: z.number().positive().max(24 * 31).default(6),
    })
    .default({ confidence_threshold: 0, seasonal_adjustment: true, weather_correlation: false, max_gap_hours: 6 }),
  /** Not in the spec (ARCHITECTURE 9): whose data it is, for the stored result and /terminal/interpolation; and where, for solar geometry and weather. */
  customer_id: identifier().optional(),
  site_id: identifier().optional(),
  asset_ids: z.array(identifier()).max(100).optional(),
  location: z.string().trim().min(1).max(200).optional(),
  latitude: z.number().min(-90).max(90).optional(),
  longitude: z.number().min(-180).max(180).optional(),
  capacity_kw: powerKw().positive().optional(),
});
