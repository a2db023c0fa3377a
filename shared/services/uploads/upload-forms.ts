/**
 * The request forms of the upload endpoints, turned into one upload (ARCHITECTURE 2): multipart with a
 * file (form A), JSON naming an object in the bucket (form B), JSON data points (platform nowcast) and a
 * raw CSV body with query parameters (platform historical).
 */
import { BadRequest } from '../../errors';
import type { RequestBody } from '../../schemas/request-body';
import { parseWith, requireFields } from '../../validation';
import { InvalidDataPoints, serialiseSeries, standardisePoints } from '../../domain/ingest';
import type { UploadKind } from '../../domain/uploads/object-keys';
import { HistoricalQuery, NowcastDataPoints, UPLOAD_PARAMETERS, UploadFormB, UploadTargetFields } from '../../schemas/uploads';
import type { Caller } from '../../access/authentication';
import { DEFAULT_SITE_ID, acceptUpload, checkCsv, defaultCustomerId, defaultRegion, uploadCsv, uploadFromBucket } from './uploads';
import { putObject } from '../../store/bucket';

/** POST /upload_train and POST /upload_nowcast: form A, form B, or (nowcast) the platform data points. */
export async function uploadDirect(caller: Caller, kind: UploadKind, body: RequestBody) {
  if (body.kind === 'multipart') {
    const { fields, files } = body.form;
    requireFields(fields, UPLOAD_PARAMETERS, 'parameter');
    const target = parseWith(UploadTargetFields, fields, 'body');
    const file = files.find((f) => f.field === 'file');
    if (!file || !file.data.length) throw new BadRequest('CSV file is required');
    checkCsv(file.data);
    return uploadCsv(caller, { ...target, kind, source: 'form_a' }, file.data);
  }
  const json = body.kind === 'json' ? body.value : {};
  if (kind === 'nowcast' && 'data_points' in json) return uploadDataPoints(caller, json);
  requireFields(json, [...UPLOAD_PARAMETERS, 's3_path'], 'parameter');
  const { s3_path, ...target } = parseWith(UploadFormB, json, 'body');
  return uploadFromBucket(caller, { ...target, kind, source: 'form_b' }, s3_path);
}

async function uploadDataPoints(caller: Caller, json: Record<string, unknown>) {
  const input = parseWith(NowcastDataPoints, json, 'body');
  let csv: string;
  try {
    csv = serialiseSeries(standardisePoints(input.data_points).rows);
  } catch (err) {
    if (err instanceof InvalidDataPoints) throw new BadRequest(`Invalid data points: ${err.message}`);
    throw err;
  }
  const target = {
    kind: 'nowcast' as const,
    customer_id: input.customer_id ?? defaultCustomerId(caller),
    site_id: input.site_id ?? DEFAULT_SITE_ID,
    region: input.region ?? defaultRegion(),
    location: input.location ?? 'unknown',
    manufacturer: input.manufacturer,
    source: 'data_points' as const,
  };
  const ack = await acceptUpload(caller, target, (key) => putObject(key, csv));
  return { ...ack, data_points_received: input.data_points.length, parameters: input.parameters ?? {}, unused_inputs: unusedNowcastParameters(input.parameters) };
}

/**
 * Why each nowcast `parameter` sent changes nothing: a nowcast upload stores its points (merged into the
 * site's series, which GET /forecast and dispatch then read); it runs no forecast or dispatch of its own.
 */
const NOWCAST_PARAMETER_USE: Record<string, string> = {
  forecast_window: 'the upload runs no forecast: ask GET /forecast with horizon_hours (or POST /forecast with forecast_config.horizon)',
  confidence_interval: 'the upload runs no forecast: POST /forecast takes forecast_config.confidence_interval; GET /forecast answers 90% intervals',
  weather_integration: "weather is added to every upload whose location is known, and GET /forecast uses the site's weather when its model was trained with it",
  dispatch_optimization: 'the upload runs no dispatch: ask POST /api/dispatch-optimization, or a batch optimize operation that reads the stored forecasts',
};

function unusedNowcastParameters(parameters: Record<string, unknown> | undefined): string[] {
  return Object.keys(parameters ?? {})
    .filter((name) => parameters![name] !== undefined && name in NOWCAST_PARAMETER_USE)
    .map((name) => `parameters.${name}: not used: ${NOWCAST_PARAMETER_USE[name]}`);
}

/** Platform POST /upload_historical: the CSV is the body, the rest is in the query. */
export async function uploadHistoricalPlatform(caller: Caller, query: Record<string, string | undefined>, body: RequestBody) {
  const q = parseWith(HistoricalQuery, query, 'query');
  const csv = Buffer.from(body.kind === 'text' ? body.value : '', 'utf8');
  checkCsv(csv);
  const ack = await uploadCsv(
    caller,
    {
      kind: 'historical',
      customer_id: q.customer_id ?? defaultCustomerId(caller),
      site_id: q.site_id ?? DEFAULT_SITE_ID,
      region: q.region ?? defaultRegion(),
      location: q.location ?? 'unknown',
      manufacturer: q.manufacturer,
      source: 'platform_csv',
    },
    csv,
  );
  return {
    statusCode: 200,
    body: JSON.stringify(ack),
    processing_queue: 'historical-ingestion',
    estimated_processing_time: estimatedProcessingTime(csv.length),
    upload_id: ack.upload_id,
    s3_path: ack.s3_path,
    unused_inputs: [
      ...(q.filename ? ['filename: not used: the stored object is named by the upload layout (s3_path), and the CSV is read by its header, not its name'] : []),
      ...(q.equipment_type ? ['equipment_type: not used: the series is read as the power or energy its columns give, whatever the equipment'] : []),
    ],
  };
}

/** From the measured processing speed (npm run bench -- ingestion: about 4 MB/s), plus the trigger's latency. */
function estimatedProcessingTime(bytes: number): string {
  return `${Math.ceil(bytes / 4_000_000) + 2} seconds`;
}
