/** Success body of POST /interpolate (SPEC 4.1). */
import * as z from 'zod';
import { timestamp } from './common';

export const InterpolationResponse = z
  .looseObject({
    cleaned_data: z.array(
      z.looseObject({
        timestamp: timestamp(),
        value: z.number().nullable().meta({ description: 'null where a gap is left unfilled (see processing_stats.gaps).' }),
        quality: z.string().meta({ description: '`original`, `interpolated`, or in quality_enhancement `stale`.' }),
      }),
    ),
    processing_stats: z.looseObject({
      rows_processed: z.number().int(),
      missing_filled: z.number().int(),
      outliers_detected: z.number().int(),
      quality_improvement: z.number(),
      stale_values_detected: z.number().int().optional(),
      gaps: z.array(z.looseObject({ start: timestamp(), end: timestamp(), method: z.string() })).optional(),
    }),
    result_id: z.string().optional().meta({ description: 'The stored result (POST /terminal/interpolation), when the request named customer_id.' }),
  })
  .meta({ id: 'InterpolationResponse' });
