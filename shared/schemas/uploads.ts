/** Upload requests (SPEC 4.1 and 4.2). Presence of the required parameters is checked first, with the spec's message. */
import * as z from 'zod';
import { identifier, seriesValue } from './bounds';
import { idSchema, textSchema } from './accounts';

export const UPLOAD_PARAMETERS = ['customer_id', 'site_id', 'region', 'location'] as const;

const region = z.string().trim().regex(/^[a-z]{2}(-gov)?-[a-z]+-\d$/, 'must be a cloud region code such as eu-central-1');

/** Form A fields and form B body (without the file / with s3_path). */
export const UploadTargetFields = z.object({
  customer_id: idSchema(),
  site_id: idSchema(),
  region,
  location: textSchema(),
  manufacturer: textSchema(60).optional(),
});

export const UploadFormB = UploadTargetFields.extend({ s3_path: z.string().trim().min(1).max(1024) });

/** Platform form of POST /upload_nowcast; customer and site are optional here (README: defaults). */
export const NowcastDataPoints = z.object({
  parameters: z
    .object({
      forecast_window: z.number().positive().optional(),
      confidence_interval: z.number().gt(0).lt(1).optional(),
      weather_integration: z.boolean().optional(),
      dispatch_optimization: z.boolean().optional(),
    })
    .optional(),
  data_points: z.array(z.object({ timestamp: z.string().min(1), value: seriesValue(), unit: z.string().min(1).max(10) })).min(1).max(100_000),
  customer_id: idSchema().optional(),
  site_id: idSchema().optional(),
  region: region.optional(),
  location: textSchema().optional(),
  manufacturer: textSchema(60).optional(),
});

/** Query of the platform POST /upload_historical (raw CSV body). */
export const HistoricalQuery = z.object({
  customer_id: idSchema().optional(),
  site_id: idSchema().optional(),
  filename: textSchema(255).optional(),
  manufacturer: textSchema(60).optional(),
  location: textSchema().optional(),
  region: region.optional(),
  equipment_type: textSchema(60).optional(),
});

export const UploadStatusPath = z.object({ upload_id: identifier() });

/** The CSV file part of a multipart form (read by busboy in the service, not by zod). */
const CsvFile = z.string().meta({ description: 'CSV file: a timestamp column (ISO 8601) and a power or energy column.', contentMediaType: 'text/csv' });

/** Form A of POST /upload_train and /upload_nowcast: the target fields and the file. */
export const UploadFormA = UploadTargetFields.extend({ file: CsvFile });

/** The form of POST /v1/freemium-forecast (SPEC 4.4). */
export const FreemiumForm = z.object({
  file: CsvFile,
  email: z.email().meta({ description: 'Identifies the requester; a customer record is created.' }),
  site_name: z.string().optional(),
  location: z.string().optional().meta({ description: 'General location, for weather data.' }),
});

/** The JSON forms of POST /upload_nowcast: form B, or the platform's data points. */
export const NowcastJsonForms = z.union([UploadFormB, NowcastDataPoints]);
