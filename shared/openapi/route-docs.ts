/**
 * What the API document says about each row of the route table: the zod schemas its handler validates
 * with (imported from shared/schemas, never restated), examples, and the success response in words.
 * Every route id needs an entry (test/unit/openapi.test.ts); a route without a body schema is documented
 * with a generic JSON object.
 */
import { z } from 'zod';
import { CreateClientRequest, CreateCustomerRequest, CreateDeviceRequest, RegisterRequest } from '../schemas/accounts';
import { AssetsRequest } from '../schemas/assets';
import { BatchPath, BatchProcessRequest } from '../schemas/batch';
import { EdgeSettings } from '../edge/edge-settings';
import { DispatchOptimizationRequest, RealtimeDispatchRequest } from '../schemas/dispatch';
import { ProjectEconomicsRequest } from '../schemas/economics';
import { CustomerForecastQuery } from '../schemas/forecast';
import { ForecastRequest, PriceForecastRequest } from '../schemas/forecasting';
import { InterpolationRequest } from '../schemas/interpolation';
import { PolicyComplianceRequest } from '../schemas/policy';
import { EstimatedActualsQuery, PutSiteRequest, PvForecastRequest, SitePath, SiteQuery } from '../schemas/pv';
import { RegulatoryUpdatesQuery } from '../schemas/regulatory';
import { TerminalActionRequest, TerminalCustomerRequest } from '../schemas/terminal';
import { ForecastResultsQuery, ModelPath, TrainingRequest, TrainingStatusPath } from '../schemas/training';
import { HistoricalQuery, NowcastDataPoints, UploadFormB, UploadStatusPath } from '../schemas/uploads';
import { WeatherDataRequest } from '../schemas/weather';
import { CreateWebhookRequest, WebhookPath } from '../schemas/webhooks';
import { DocsQuery } from './docs-page';
import * as ex from './examples';

/** The monthly quota a route consumes (SPEC "Limits"): exceeding it is a 429 TIER_LIMIT_EXCEEDED. */
export type QuotaKind = 'policy_queries' | 'forecasts' | 'data_cleaning_operations' | 'model_training_jobs';

export interface RouteDoc {
  summary: string;
  /** Grouping in the docs page. */
  tag: string;
  description?: string;
  /** The JSON body schema the handler validates with (upload routes: the JSON forms). */
  body?: z.ZodType;
  query?: z.ZodType;
  /** Path parameters; without it each `{name}` of the path is documented as a string. */
  path?: z.ZodType;
  /** Named example bodies; each must pass `body`. */
  examples?: Record<string, unknown>;
  /** What a success returns. */
  response: string;
  /** @default 200 */
  successStatus?: 200 | 201;
  quota?: QuotaKind;
  /** Statuses besides the ones every route of its group can answer. */
  errors?: readonly (404 | 409 | 413 | 422 | 503)[];
}

const TERMINAL_STORED = 'Requires `customer_id`; 404 when nothing is stored for the customer.';

const action = (summary: string, actions: string, response: string, id: string, errors: RouteDoc['errors'] = [404]): RouteDoc => ({
  summary,
  tag: 'Asset operations',
  description: `Field \`action\` selects the operation: ${actions}. An unknown action answers 400 \`Invalid action\`.`,
  body: id === 'terminal-assets' ? AssetsRequest.loose() : TerminalActionRequest,
  examples: ex.terminalExamples[id],
  response,
  errors,
});

export const ROUTE_DOCS: Readonly<Record<string, RouteDoc>> = {
  // Foundation
  health: { summary: 'Service health', tag: 'Foundation', response: 'Status, version, components and performance metrics; 503 with the same body when a component is down.', errors: [503] },
  register: {
    summary: 'Register a user and issue an API key',
    tag: 'Foundation',
    body: RegisterRequest,
    examples: { free: ex.registerExample },
    response: 'api_key (shown once), email, tier, limits and upgrade_url.',
    errors: [409],
  },
  usage: { summary: 'Usage and limits of the calling account', tag: 'Foundation', response: 'user_email, tier, current_month, usage, limits and usage_percentage (0-100).' },
  'create-client': { summary: 'Create a client', tag: 'Foundation', body: CreateClientRequest, examples: { client: ex.createClientExample }, response: '`status: "success"` and the created client.', errors: [409] },
  'create-customer': { summary: 'Create a customer of a client', tag: 'Foundation', body: CreateCustomerRequest, examples: { customer: ex.createCustomerExample }, response: '`status: "success"` and the created customer.', errors: [404, 409] },
  'create-device': { summary: 'Register a device of a customer', tag: 'Foundation', body: CreateDeviceRequest, examples: { battery: ex.createDeviceExample }, response: '`status: "success"` and the created device.', errors: [404, 409] },
  'system-status': { summary: 'System metrics (enterprise tier)', tag: 'Foundation', response: 'system_metrics, service_metrics and model_performance.' },

  // Ingestion
  'upload-historical': {
    summary: 'Upload historical data as raw CSV (platform form)',
    tag: 'Ingestion',
    description: 'The body is the CSV file itself: a timestamp column and a power or energy column.',
    query: HistoricalQuery,
    response: 'statusCode, body, processing_queue, estimated_processing_time, and upload_id to follow processing.',
  },
  'upload-nowcast': {
    summary: 'Upload real-time (nowcast) data',
    tag: 'Ingestion',
    description: 'Three forms, chosen by content type and body (ARCHITECTURE 2): multipart with `file` (form A), JSON with `s3_path` (form B), JSON with `data_points` (platform form).',
    body: z.union([UploadFormB, NowcastDataPoints]),
    examples: { data_points: ex.nowcastDataPointsExample, s3_path: ex.uploadFormBExample },
    response: 'The upload acknowledgement: status, message, s3_path, processing_status `queued`, upload_id.',
  },
  'upload-train': {
    summary: 'Upload historical (training) data',
    tag: 'Ingestion',
    description: 'Multipart with `file` (form A) or JSON with `s3_path` (form B).',
    body: UploadFormB,
    examples: { s3_path: ex.uploadFormBExample },
    response: 'The upload acknowledgement: status, message, s3_path, processing_status `queued`, upload_id.',
  },
  'upload-status': { summary: 'Processing status of an upload', tag: 'Ingestion', path: UploadStatusPath, response: 'upload_id, status (`queued`, `processing`, `processed`, `failed`), rows, time span, manufacturer, reason.', errors: [404] },
  'site-put': {
    summary: 'Set the PV system specs of a site',
    tag: 'Sites',
    description:
      'Creates the site when it is new. `pv_system`: latitude, longitude, elevation_m, capacity_kwp (DC), tilt_deg, azimuth_deg (180 = south), losses_pct (default 14, PVWatts), inverter_ac_kw (default capacity_kwp / 1.2, PVWatts) and an optional horizon profile `[{azimuth_deg, elevation_deg}]`. A tuning learned for earlier specs is dropped.',
    body: PutSiteRequest,
    path: SitePath,
    examples: { berlin_rooftop: ex.putSiteExample },
    response: 'The site, its pv_system, specs_source (`set`) and the tuning, if any.',
    errors: [404],
  },
  'site-get': {
    summary: 'A site with its PV specs (set, or inferred from its history with the fit)',
    tag: 'Sites',
    query: SiteQuery,
    path: SitePath,
    response: 'site, pv_system (as set, or null), specs_source (`set`, `inferred` or `none`), inferred (specs fitted on clear-sky days of the history, with r2, rmse_kw and the days used) and tuning (its measured effect).',
    errors: [404],
  },
  'weather-data': { summary: 'Weather data for a location and date range', tag: 'Ingestion', body: WeatherDataRequest, examples: { berlin: ex.weatherDataExample }, response: 'weather_data (one row per hour) and forecast_enhancement.' },

  // Forecasting
  forecast: {
    summary: 'Forecast solar, wind or load from history',
    tag: 'Forecasting',
    description:
      'With `forecast_config.weather_integration: true` the models use weather: the optional top-level `weather` array of `{timestamp, ghi_wm2?, temperature_c?, wind_speed_ms?, cloud_cover_pct?}` (each value belongs to the series value with the same timestamp; a coarser feed is interpolated between its rows) covering the history and every horizon step (a missing horizon step: 400 naming the first), else the weather provider at `latitude`/`longitude` or `location` (its record of the history, its forecast of the horizon), else none, said in the answer. Solar members read `ghi_wm2` (estimated from `cloud_cover_pct` where only that is sent and the place is known, Kasten & Czeplak 1980), load members `temperature_c`, the wind power curve `wind_speed_ms`. `weather` sent without `weather_integration` is not used.',
    body: ForecastRequest,
    examples: { solar: ex.forecastExample, solar_with_weather: ex.forecastWithWeatherExample },
    response: 'forecast points with confidence bounds, model_performance, actionable_insights and `weather`: `{source: request | the provider (open-meteo, offline-climatology) | none, variables (those the models were given), note? (why not, or what was assumed)}`.',
    quota: 'forecasts',
  },
  'generate-forecast': { summary: 'Forecast solar, wind or load (same as POST /forecast)', tag: 'Forecasting', description: 'Same as POST /forecast, weather included.', body: ForecastRequest, examples: { solar: ex.forecastExample, solar_with_weather: ex.forecastWithWeatherExample }, response: 'Same as POST /forecast.', quota: 'forecasts' },
  'pv-forecast': {
    summary: 'Physics forecast of a PV system (no history needed)',
    tag: 'Forecasting',
    description:
      'A site (`customer_id` + `site_id`, its specs set or inferred) or an inline `pv_system`; `horizon_hours` up to 168, `interval_minutes` 15 or 60, optional `start` (default now). Weather: the optional `weather` rows (the caller\'s own NWP: `ghi_wm2` required, `dni_wm2`, `dhi_wm2`, `temperature_c`, `wind_speed_ms`; each row the mean of the interval ending at its timestamp) covering the horizon, else the weather provider. Model chain: Erbs decomposition, Perez transposition, incidence-angle losses, Faiman cell temperature, PVWatts DC and inverter with clipping, horizon shading. A site with history gets a correction learned from its measured against modelled output; `tuning_effect` reports it out of sample.',
    body: PvForecastRequest,
    examples: { site: ex.pvForecastSiteExample, inline_with_weather: ex.pvForecastInlineExample },
    response: 'forecasts of `{timestamp, p10_kw, p50_kw, p90_kw, poa_wm2, cell_temp_c}`, pv_system and specs_source, weather_source, tuned and tuning_effect, energy_kwh.',
    quota: 'forecasts',
    errors: [404],
  },
  'pv-estimated-actuals': {
    summary: 'Modelled PV output of past days from the weather record',
    tag: 'Forecasting',
    description: 'At most 31 days per call, in the past; 15- or 60-minute steps. The site\'s measured power is given beside the estimate where it has some.',
    query: EstimatedActualsQuery,
    response: 'estimated_actuals of `{timestamp, estimated_kw, measured_kw, poa_wm2, cell_temp_c}`, weather_source, tuned and tuning_effect, estimated_energy_kwh.',
    quota: 'forecasts',
    errors: [404],
  },
  'price-forecast': {
    summary: 'Electricity price forecast',
    tag: 'Forecasting',
    description:
      'Hourly (or sub-hourly) prices; days are local to `timezone` (default UTC). Members: LEAR (lasso on asinh-transformed lagged prices, an ensemble over calibration windows of 56, 84, 364 and 728 days) and the epftoolbox naive forecast, chosen on rolling-origin validation. ' +
      '`fundamentals`: rows of `{timestamp, <name>: number, ...}` with up to 4 named columns (e.g. `load_forecast`, `wind_forecast`, `solar_forecast`); with `include_fundamentals: true` they are LEAR regressors (the day itself, the day before and a week before). They must cover every horizon hour (else 400) and at least the last 35 days of the history (else 400); history gaps are interpolated. ' +
      '`include_fundamentals: true` without `fundamentals`, fundamentals without `include_fundamentals`, and `renewable_penetration` without a wind, solar or renewable column are answered, not refused: `unused_inputs` says what was not used and why.',
    body: PriceForecastRequest,
    examples: { day_ahead: ex.priceForecastExample, with_fundamentals: ex.priceForecastFundamentalsExample },
    response: 'price_forecast and market_insights (renewable_impact reads the renewable regressor when one is used), model_used, market, member_weights, fundamentals_used (the columns used as regressors) and unused_inputs.',
    quota: 'forecasts',
  },
  'freemium-forecast': {
    summary: 'Free 24-hour forecast from a CSV (no key)',
    tag: 'Forecasting',
    description: 'Limited per client address and per e-mail address and day.',
    response: 'The freemium forecast: 24 hourly points with bounds.',
  },
  'freemium-forecast-api': { summary: 'Free 24-hour forecast (second path of /v1/freemium-forecast)', tag: 'Forecasting', response: 'Same as POST /v1/freemium-forecast.' },

  // Training, registry, stored results
  train: { summary: 'Start training a model', tag: 'Training', body: TrainingRequest, examples: { ensemble: ex.trainExample }, response: 'statusCode, training_job (job_id, status, estimated_completion) and training_progress_url.', quota: 'model_training_jobs' },
  'training-status': { summary: 'Status of a training job', tag: 'Training', path: TrainingStatusPath, response: 'job_id, status, progress, model_performance and model_artifacts.', errors: [404] },
  'get-forecast': {
    summary: 'Forecast of a customer from its trained models',
    tag: 'Forecasting',
    query: CustomerForecastQuery,
    response: 'The generated forecast for one site, or for every site of the customer, each naming the `weather` it used (`source`, `variables`, `note`); a solar site with PV specs (set or inferred) has the physics model among its members.',
    quota: 'forecasts',
    errors: [404],
  },
  results: { summary: 'Stored forecast results and their accuracy', tag: 'Training', query: ForecastResultsQuery, response: 'results: forecast_data, performance_metrics and business_insights.' },
  'forecast-results': { summary: 'Stored forecast results (same as GET /results)', tag: 'Training', query: ForecastResultsQuery, response: 'Same as GET /results.' },
  'models-marketplace': { summary: 'Models on the marketplace', tag: 'Training', response: 'available_models.' },
  'model-promote': { summary: 'Promote a challenger (or archived) model to production', tag: 'Training', path: ModelPath, response: 'model (the record, now production, with its status_history), previous_production (now archived, or null), message.', errors: [404, 409] },
  'model-rollback': { summary: 'Roll a production model back to the one it replaced', tag: 'Training', path: ModelPath, response: 'model (the restored production record), rolled_back (the named model, now archived), message.', errors: [404, 409] },
  'terminal-forecast': { summary: 'Stored forecast results of a customer', tag: 'Asset operations', description: TERMINAL_STORED, body: TerminalCustomerRequest, examples: { customer: ex.terminalCustomerExample }, response: 'success, customer_id, forecast_results, count.', errors: [404] },
  'terminal-ml-models': { summary: 'Model registry records', tag: 'Asset operations', description: '`customer_id` is an optional filter; the body may be `{}`.', body: TerminalCustomerRequest, examples: { all: {}, customer: ex.terminalCustomerExample }, response: 'success, model_metrics, count.' },

  // Asset operations (OODA)
  'terminal-assets': action('Add, list or get assets', '`add` (asset_id, name, type, capacity_kw, location required; components optional), `list`, `get` (asset_id)', 'add: message, asset_id; list: success, assets, count; get: success, asset.', 'terminal-assets'),
  'terminal-schedule': action('Create or list maintenance schedules (Decide)', '`create` (asset_id, maintenance_type, scheduled_date, priority, reason), `list` (asset_id)', 'create: success, message, schedule_id, asset_id, scheduled_date; list: success, schedules, count.', 'terminal-schedule'),
  'terminal-bom': action('Generate or list bills of materials (Decide)', '`generate` (asset_id, maintenance_type, optional schedule_id), `list` (asset_id)', 'generate: success, message, bom_id, asset_id, items, total_cost; list: success, boms, count.', 'terminal-bom'),
  'terminal-order': action(
    'Create, list or update work orders (Act)',
    '`create` (asset_id, schedule_id, bom_id, assigned_technician, estimated_duration_hours, priority), `list` (asset_id), `update` (order_id, status, optional completion_notes; 409 `Invalid status transition`)',
    'create: success, message, order_id, asset_id, status, estimated_completion; list: success, orders, count.',
    'terminal-order',
    [404, 409],
  ),
  'terminal-track': action('Subscribe to work-order status changes', '`subscribe` (order_id, callback_url, optional secret), `list` (order_id)', 'subscribe: success, message, subscription_id, order_id, status (and the generated secret once); list: success, subscriptions, count.', 'terminal-track'),
  'terminal-detect': action('Run or list fault detection (Observe)', '`run` (asset_id), `list` (optional asset_id)', 'run: success, message, detection_id, asset_id, anomalies_detected, status; list: success, detections, count.', 'terminal-detect'),
  'terminal-diagnose': action('Run or list diagnostics (Orient)', '`run` (asset_id), `list` (optional asset_id)', 'run: success, message, diagnostic_id, asset_id, root_cause, confidence, status; list: success, diagnostics, count.', 'terminal-diagnose'),
  'terminal-ooda': { summary: 'OODA summaries of a customer', tag: 'Asset operations', description: TERMINAL_STORED, body: TerminalCustomerRequest, examples: { customer: ex.terminalCustomerExample }, response: 'success, customer_id, ml_enhanced_activities, count.', errors: [404] },
  'webhooks-create': { summary: 'Register a webhook', tag: 'Webhooks', body: CreateWebhookRequest, response: 'The registration with webhook_id.', successStatus: 201 },
  'webhooks-list': { summary: 'List webhook registrations', tag: 'Webhooks', response: 'The registrations of the account.' },
  'webhooks-delete': { summary: 'Remove a webhook registration', tag: 'Webhooks', path: WebhookPath, response: 'The removed registration id.', errors: [404] },

  // Data cleaning
  interpolate: {
    summary: 'Fill gaps and clean a series',
    tag: 'Data cleaning',
    body: InterpolationRequest,
    examples: { midday_gap: ex.interpolateExample },
    response: 'cleaned_data (quality `original`, `interpolated`, or in quality_enhancement `stale`) and processing_stats (with stale_values_detected).',
    quota: 'data_cleaning_operations',
    errors: [413],
  },
  'terminal-interpolation': { summary: 'Stored interpolation results of a customer', tag: 'Asset operations', description: TERMINAL_STORED, body: TerminalCustomerRequest, examples: { customer: ex.terminalCustomerExample }, response: 'success, customer_id, interpolation_results, count.', errors: [404] },

  // Dispatch
  'dispatch-optimization': {
    summary: 'Optimise battery, solar and grid dispatch',
    tag: 'Dispatch',
    body: DispatchOptimizationRequest,
    examples: { day: ex.dispatchOptimizationExample },
    response: 'optimization_result: dispatch_schedule, economic_summary, operational_insights.',
    errors: [422],
  },
  'realtime-dispatch': { summary: 'Send a real-time control command', tag: 'Dispatch', body: RealtimeDispatchRequest, examples: { discharge: ex.realtimeDispatchExample }, response: '`status: "success"` and the accepted command with its safety-check results.', errors: [404] },

  // Policy and economics
  'policy-compliance': { summary: 'Policy and compliance question answering', tag: 'Policy and economics', body: PolicyComplianceRequest, examples: { rooftop: ex.policyComplianceExample }, response: 'answer, sources, compliance_checklist, financial_incentives, next_steps, tier_info.', quota: 'policy_queries' },
  'policy-compliance-freemium': {
    summary: 'Policy question answering without a key',
    tag: 'Policy and economics',
    description: 'Limited per client address and day.',
    body: PolicyComplianceRequest,
    examples: { rooftop: ex.policyComplianceExample },
    response: 'Same as POST /api/policy-compliance.',
  },
  'regulatory-updates': { summary: 'Regulatory updates', tag: 'Policy and economics', query: RegulatoryUpdatesQuery, response: 'updates.' },
  'project-economics': { summary: 'Project economics (NPV, IRR, payback, LCOE, ROI)', tag: 'Policy and economics', body: ProjectEconomicsRequest, examples: { solar_plant: ex.projectEconomicsExample }, response: 'financial_metrics, cash_flow_projection, sensitivity_analysis, investment_recommendation.' },

  // Batch, edge, documentation
  'batch-process': {
    summary: 'Run several operations in one request',
    tag: 'Batch and edge',
    body: BatchProcessRequest,
    examples: { mixed: ex.batchExample },
    response: 'The batch results in request order (one failing operation does not fail the others), or 202 with batch_id when callback_url is given; the results are then POSTed, signed, to the callback.',
  },
  'batch-status': { summary: 'Status of a batch', tag: 'Batch and edge', path: BatchPath, response: 'The batch: status, progress and, once completed, its results.', errors: [404] },
  'edge-configure': {
    summary: 'Configure the edge node (edge only)',
    tag: 'Batch and edge',
    body: EdgeSettings.partial(),
    examples: { sync: { cloud_sync: true, local_storage_limit: '10GB', auto_cleanup_days: 30, performance_mode: 'balanced', security_level: 'high' } },
    response: '`status: "success"`, the node id and the stored configuration (fields left out keep their value).',
  },
  'edge-status': { summary: 'Status of the edge node (edge only)', tag: 'Batch and edge', response: 'edge_node_id, cloud_connectivity, local_storage_used, processing_capability, sync_status, models_cached.' },
  openapi: { summary: 'This API document (OpenAPI 3.1)', tag: 'Documentation', response: 'The OpenAPI document.' },
  docs: {
    summary: 'API reference page',
    tag: 'Documentation',
    description: 'Swagger UI served by the service itself; `?asset=<name>` returns its script and style sheet.',
    query: DocsQuery,
    response: 'An HTML page, or the asset named by `asset`.',
    errors: [404],
  },
};
