/** Success bodies of ingestion, sites and weather (SPEC 2 "Upload acknowledgement", 4.1, 4.2; ARCHITECTURE 9). */
import * as z from 'zod';
import { POINT_QUALITIES } from '../../domain/interpolation/flags';
import { success, timestamp } from './common';

/** SPEC section 2; `upload_id` follows processing (GET /api/uploads/{upload_id}). */
export const UploadAcknowledgement = success({
  message: z.string(),
  s3_path: z.string(),
  processing_status: z.literal('queued'),
  upload_id: z.string(),
  data_points_received: z.number().int().optional().meta({ description: 'Platform nowcast form (data_points) only.' }),
}).meta({ id: 'UploadAcknowledgement' });

/** SPEC 4.1 POST /upload_historical. */
export const HistoricalUploadResponse = z
  .looseObject({ statusCode: z.number().int(), body: z.string(), processing_queue: z.string(), estimated_processing_time: z.string(), upload_id: z.string(), s3_path: z.string() })
  .meta({ id: 'HistoricalUploadResponse' });

export const UploadStatusResponse = z
  .looseObject({
    upload_id: z.string(),
    status: z.enum(['queued', 'processing', 'processed', 'failed']),
    processing_status: z.enum(['queued', 'processing', 'processed', 'failed']),
    customer_id: z.string(),
    site_id: z.string(),
    s3_path: z.string(),
    rows: z.number().int().optional(),
    rows_rejected: z.number().int().optional(),
    start: timestamp().optional(),
    end: timestamp().optional(),
    interval_minutes: z.number().optional(),
    manufacturer: z.string().optional(),
    notes: z.array(z.string()).optional(),
    reason: z.string().optional().meta({ description: 'Why processing failed.' }),
    training: z
      .looseObject({ queued: z.boolean(), reason: z.string(), job_id: z.string().optional(), training_progress_url: z.string().optional() })
      .optional()
      .meta({ description: 'Whether this upload queued automatic training, and why (README: Training and the model registry).' }),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: 'UploadStatusResponse' });

const PvSystem = z
  .looseObject({
    latitude: z.number(),
    longitude: z.number(),
    elevation_m: z.number(),
    capacity_kwp: z.number(),
    tilt_deg: z.number(),
    azimuth_deg: z.number(),
    losses_pct: z.number(),
    inverter_ac_kw: z.number(),
  })
  .meta({ id: 'PvSystem' });
export { PvSystem };

export const SiteResponse = z
  .looseObject({
    site: z.looseObject({ customer_id: z.string(), site_id: z.string() }),
    pv_system: PvSystem.nullable(),
    specs_source: z.enum(['set', 'inferred', 'none']),
    inferred: z.looseObject({}).nullable().meta({ description: 'Specs fitted on clear-sky days of the history, with r2, rmse_kw and the days used.' }),
    tuning: z.looseObject({}).nullable().meta({ description: 'The correction learned from the history, with its measured effect.' }),
  })
  .meta({ id: 'SiteResponse' });

export const SiteSeriesResponse = success({
  customer_id: z.string(),
  site_id: z.string(),
  interval_minutes: z.number().positive(),
  start: timestamp().meta({ description: 'The first step shown (on the site grid).' }),
  end: timestamp().meta({ description: 'The last step shown.' }),
  series_kind: z.enum(['solar', 'generic']).meta({ description: 'How the detectors judged the window (solar: its night floor is not a stuck value).' }),
  points: z.array(
    z.object({
      timestamp: timestamp(),
      value: z.number().nullable().meta({ description: 'Stored power, kW; null where nothing is stored.' }),
      quality: z.enum(POINT_QUALITIES).meta({ description: '`missing`: no stored value; `outlier`, `stale`: the stored value, flagged as POST /interpolate quality_enhancement flags it.' }),
    }),
  ),
  counts: z.object(Object.fromEntries(POINT_QUALITIES.map((q) => [q, z.number().int().min(0)])) as Record<(typeof POINT_QUALITIES)[number], z.ZodNumber>),
}).meta({ id: 'SiteSeriesResponse' });

export const WeatherDataResponse = z
  .looseObject({
    weather_data: z.array(z.object({ timestamp: timestamp() }).catchall(z.number().nullable())).meta({ description: 'One row per hour: the timestamp and one number per requested parameter.' }),
    forecast_enhancement: z.looseObject({ solar_correlation: z.number().nullable(), wind_correlation: z.number().nullable(), temperature_impact: z.string() }),
    source: z.string().optional(),
    timezone: z.string().optional(),
  })
  .meta({ id: 'WeatherDataResponse' });
