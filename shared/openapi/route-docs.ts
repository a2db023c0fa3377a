/**
 * The prose of the API document for each row of the route table: its tag, description, example requests
 * and the success response in words, and the error statuses it can answer besides its group's. Everything
 * else (schemas, summary, quota) is on the row (shared/routes/). Every route id needs an entry
 * (test/unit/openapi.test.ts).
 */
import * as ex from './examples';

export interface RouteDoc {
  /** Grouping in the docs page. */
  tag: string;
  description?: string;
  /** Named example bodies; each must pass the row's body schema. */
  examples?: Record<string, unknown>;
  /** What a success returns. */
  response: string;
  /** Statuses besides the ones every route of its group can answer. */
  errors?: readonly (404 | 409 | 413 | 422 | 503)[];
}

const TERMINAL_STORED = 'Requires `customer_id`; 404 when nothing is stored for the customer.';

const action = (actions: string, response: string, id: string, errors: RouteDoc['errors'] = [404]): RouteDoc => ({
  tag: 'Asset operations',
  description: `Field \`action\` selects the operation, each with its own body: ${actions}. An unknown action answers 400 \`Invalid action\`.`,
  examples: ex.terminalExamples[id],
  response,
  errors,
});

export const ROUTE_DOCS: Readonly<Record<string, RouteDoc>> = {
  // Foundation
  health: { tag: 'Foundation', response: 'Status, version, components and performance metrics; 503 with the same body when a component is down.', errors: [503] },
  register: {
    tag: 'Foundation',
    examples: { free: ex.registerExample },
    response: 'api_key (shown once), email, tier, limits and upgrade_url.',
    errors: [409],
  },
  usage: { tag: 'Foundation', response: 'user_email, tier, current_month, usage, limits and usage_percentage (0-100).' },
  'create-client': { tag: 'Foundation', examples: { client: ex.createClientExample }, response: '`status: "success"` and the created client.', errors: [409] },
  'create-customer': { tag: 'Foundation', examples: { customer: ex.createCustomerExample }, response: '`status: "success"` and the created customer.', errors: [404, 409] },
  'create-device': { tag: 'Foundation', examples: { battery: ex.createDeviceExample }, response: '`status: "success"` and the created device.', errors: [404, 409] },
  'system-status': { tag: 'Foundation', response: 'system_metrics, service_metrics and model_performance.' },

  // Ingestion
  'upload-historical': {
    tag: 'Ingestion',
    description: 'The body is the CSV file itself: a timestamp column and a power or energy column.',
    response: 'statusCode, body, processing_queue, estimated_processing_time, and upload_id to follow processing.',
  },
  'upload-nowcast': {
    tag: 'Ingestion',
    description: 'Three forms, chosen by content type and body (ARCHITECTURE 2): multipart with `file` (form A), JSON with `s3_path` (form B), JSON with `data_points` (platform form).',
    examples: { data_points: ex.nowcastDataPointsExample, s3_path: ex.uploadFormBExample },
    response: 'The upload acknowledgement: status, message, s3_path, processing_status `queued`, upload_id.',
  },
  'upload-train': {
    tag: 'Ingestion',
    description: 'Multipart with `file` (form A) or JSON with `s3_path` (form B).',
    examples: { s3_path: ex.uploadFormBExample },
    response: 'The upload acknowledgement: status, message, s3_path, processing_status `queued`, upload_id.',
  },
  'upload-status': { tag: 'Ingestion', response: 'upload_id, status (`queued`, `processing`, `processed`, `failed`), rows, time span, manufacturer, reason.', errors: [404] },
  'site-put': {
    tag: 'Sites',
    description:
      'Creates the site when it is new. `pv_system`: latitude, longitude, elevation_m, capacity_kwp (DC), tilt_deg, azimuth_deg (180 = south), losses_pct (default 14, PVWatts), inverter_ac_kw (default capacity_kwp / 1.2, PVWatts) and an optional horizon profile `[{azimuth_deg, elevation_deg}]`. A tuning learned for earlier specs is dropped.',
    examples: { berlin_rooftop: ex.putSiteExample },
    response: 'The site, its pv_system, specs_source (`set`) and the tuning, if any.',
    errors: [404],
  },
  'site-get': {
    tag: 'Sites',
    response: 'site, pv_system (as set, or null), specs_source (`set`, `inferred` or `none`), inferred (specs fitted on clear-sky days of the history, with r2, rmse_kw and the days used) and tuning (its measured effect).',
    errors: [404],
  },
  'site-series': {
    tag: 'Sites',
    description:
      "The stored power on the site's own grid (its interval_minutes) from `start` to `end`, by default the last 30 days of its data; at most 35,040 points (a year of 15-minute data) per request, else 400. Each step's `quality`: `original`, `missing` (nothing stored: `value` null), or `outlier` / `stale` where the detectors of POST /interpolate quality_enhancement flag the stored value (which is returned as stored). A view: no quota is used.",
    response: 'customer_id, site_id, interval_minutes, start, end, series_kind, points `[{timestamp, value, quality}]` and counts per quality.',
    errors: [404],
  },
  'weather-data': { tag: 'Ingestion', examples: { berlin: ex.weatherDataExample }, response: 'weather_data (one row per hour) and forecast_enhancement.' },

  // Forecasting
  forecast: {
    tag: 'Forecasting',
    description:
      'With `forecast_config.weather_integration: true` the models use weather: the optional top-level `weather` array of `{timestamp, ghi_wm2?, temperature_c?, wind_speed_ms?, cloud_cover_pct?}` (each value belongs to the series value with the same timestamp; a coarser feed is interpolated between its rows) covering the history and every horizon step (a missing horizon step: 400 naming the first), else the weather provider at `latitude`/`longitude` or `location` (its record of the history, its forecast of the horizon), else none, said in the answer. Solar members read `ghi_wm2` (estimated from `cloud_cover_pct` where only that is sent and the place is known, Kasten & Czeplak 1980), load members `temperature_c`, the wind power curve `wind_speed_ms`. `weather` sent without `weather_integration` is not used.',
    examples: { solar: ex.forecastExample, solar_with_weather: ex.forecastWithWeatherExample },
    response: 'forecast points with confidence bounds, model_performance, actionable_insights and `weather`: `{source: request | the provider (open-meteo, offline-climatology) | none, variables (those the models were given), note? (why not, or what was assumed)}`.',
  },
  'generate-forecast': { tag: 'Forecasting', description: 'Same as POST /forecast, weather included.', examples: { solar: ex.forecastExample, solar_with_weather: ex.forecastWithWeatherExample }, response: 'Same as POST /forecast.' },
  'pv-forecast': {
    tag: 'Forecasting',
    description:
      'A site (`customer_id` + `site_id`, its specs set or inferred) or an inline `pv_system`; `horizon_hours` up to 168, `interval_minutes` 15 or 60, optional `start` (default now). Weather: the optional `weather` rows (the caller\'s own NWP: `ghi_wm2` required, `dni_wm2`, `dhi_wm2`, `temperature_c`, `wind_speed_ms`; each row the mean of the interval ending at its timestamp) covering the horizon, else the weather provider. Model chain: Erbs decomposition, Perez transposition, incidence-angle losses, Faiman cell temperature, PVWatts DC and inverter with clipping, horizon shading. A site with history gets a correction learned from its measured against modelled output; `tuning_effect` reports it out of sample.',
    examples: { site: ex.pvForecastSiteExample, inline_with_weather: ex.pvForecastInlineExample },
    response: 'forecasts of `{timestamp, p10_kw, p50_kw, p90_kw, poa_wm2, cell_temp_c}`, pv_system and specs_source, weather_source, tuned and tuning_effect, energy_kwh.',
    errors: [404],
  },
  'pv-estimated-actuals': {
    tag: 'Forecasting',
    description: 'At most 31 days per call, in the past; 15- or 60-minute steps. The site\'s measured power is given beside the estimate where it has some.',
    response: 'estimated_actuals of `{timestamp, estimated_kw, measured_kw, poa_wm2, cell_temp_c}`, weather_source, tuned and tuning_effect, estimated_energy_kwh.',
    errors: [404],
  },
  'price-forecast': {
    tag: 'Forecasting',
    description:
      'Hourly (or sub-hourly) prices; days are local to `timezone` (default UTC). Members: LEAR (lasso on asinh-transformed lagged prices, an ensemble over calibration windows of 56, 84, 364 and 728 days) and the epftoolbox naive forecast, chosen on rolling-origin validation. ' +
      '`fundamentals`: rows of `{timestamp, <name>: number, ...}` with up to 4 named columns (e.g. `load_forecast`, `wind_forecast`, `solar_forecast`); with `include_fundamentals: true` they are LEAR regressors (the day itself, the day before and a week before). They must cover every horizon hour (else 400) and at least the last 35 days of the history (else 400); history gaps are interpolated. ' +
      '`include_fundamentals: true` without `fundamentals`, fundamentals without `include_fundamentals`, and `renewable_penetration` without a wind, solar or renewable column are answered, not refused: `unused_inputs` says what was not used and why.',
    examples: { day_ahead: ex.priceForecastExample, with_fundamentals: ex.priceForecastFundamentalsExample },
    response: 'price_forecast and market_insights (renewable_impact reads the renewable regressor when one is used), model_used, market, member_weights, fundamentals_used (the columns used as regressors) and unused_inputs.',
  },
  'freemium-forecast': {
    tag: 'Forecasting',
    description: 'Limited per client address and per e-mail address and day.',
    response: 'The freemium forecast: 24 hourly points with bounds.',
  },
  'freemium-forecast-api': { tag: 'Forecasting', response: 'Same as POST /v1/freemium-forecast.' },

  // Training, registry, stored results
  train: { tag: 'Training', examples: { ensemble: ex.trainExample }, response: 'statusCode, training_job (job_id, status, estimated_completion) and training_progress_url.' },
  'training-status': { tag: 'Training', response: 'job_id, status, progress, model_performance and model_artifacts.', errors: [404] },
  'get-forecast': {
    tag: 'Forecasting',
    response: 'The generated forecast for one site, or for every site of the customer, each naming the `weather` it used (`source`, `variables`, `note`); a solar site with PV specs (set or inferred) has the physics model among its members.',
    errors: [404],
  },
  results: { tag: 'Training', response: 'results: forecast_data, performance_metrics and business_insights.' },
  'forecast-results': { tag: 'Training', response: 'Same as GET /results.' },
  'models-marketplace': { tag: 'Training', response: 'available_models.' },
  'model-promote': { tag: 'Training', response: 'model (the record, now production, with its status_history), previous_production (now archived, or null), message.', errors: [404, 409] },
  'model-rollback': { tag: 'Training', response: 'model (the restored production record), rolled_back (the named model, now archived), message.', errors: [404, 409] },
  'terminal-forecast': { tag: 'Asset operations', description: TERMINAL_STORED, examples: { customer: ex.terminalCustomerExample }, response: 'success, customer_id, forecast_results, count.', errors: [404] },
  'terminal-ml-models': { tag: 'Asset operations', description: '`customer_id` is an optional filter; the body may be `{}`.', examples: { all: {}, customer: ex.terminalCustomerExample }, response: 'success, model_metrics, count.' },

  // Asset operations (OODA)
  'terminal-assets': action('`add` (asset_id, name, type, capacity_kw, location required; components optional), `list`, `get` (asset_id)', 'add: message, asset_id; list: success, assets, count; get: success, asset.', 'terminal-assets'),
  'terminal-schedule': action('`create` (asset_id, maintenance_type, scheduled_date, priority, reason), `list` (asset_id)', 'create: success, message, schedule_id, asset_id, scheduled_date; list: success, schedules, count.', 'terminal-schedule'),
  'terminal-bom': action('`generate` (asset_id, maintenance_type, optional schedule_id), `list` (asset_id)', 'generate: success, message, bom_id, asset_id, items, total_cost; list: success, boms, count.', 'terminal-bom'),
  'terminal-order': action(
    '`create` (asset_id, schedule_id, bom_id, assigned_technician, estimated_duration_hours, priority), `list` (asset_id), `update` (order_id, status, optional completion_notes; 409 `Invalid status transition`)',
    'create: success, message, order_id, asset_id, status, estimated_completion; list: success, orders, count.',
    'terminal-order',
    [404, 409],
  ),
  'terminal-track': action('`subscribe` (order_id, callback_url, optional secret), `list` (order_id)', 'subscribe: success, message, subscription_id, order_id, status (and the generated secret once); list: success, subscriptions (each with recent_deliveries, its last 10 delivery attempts), count.', 'terminal-track'),
  'terminal-detect': action('`run` (asset_id), `list` (optional asset_id)', 'run: success, message, detection_id, asset_id, anomalies_detected, status; list: success, detections, count.', 'terminal-detect'),
  'terminal-diagnose': action('`run` (asset_id), `list` (optional asset_id)', 'run: success, message, diagnostic_id, asset_id, root_cause, confidence, status; list: success, diagnostics, count.', 'terminal-diagnose'),
  'terminal-ooda': { tag: 'Asset operations', description: TERMINAL_STORED, examples: { customer: ex.terminalCustomerExample }, response: 'success, customer_id, ml_enhanced_activities, count.', errors: [404] },
  'webhooks-create': { tag: 'Webhooks', response: 'The registration with webhook_id.' },
  'webhooks-list': { tag: 'Webhooks', response: 'The registrations of the account, each with recent_deliveries: its last 10 delivery attempts, newest first (event, attempt, time, outcome, HTTP status or reason).' },
  'webhooks-delete': { tag: 'Webhooks', response: 'The removed registration id.', errors: [404] },

  // Data cleaning
  interpolate: {
    tag: 'Data cleaning',
    examples: { midday_gap: ex.interpolateExample },
    response: 'cleaned_data (quality `original`, `interpolated`, or in quality_enhancement `stale`) and processing_stats (with stale_values_detected).',
    errors: [413],
  },
  'terminal-interpolation': { tag: 'Asset operations', description: TERMINAL_STORED, examples: { customer: ex.terminalCustomerExample }, response: 'success, customer_id, interpolation_results, count.', errors: [404] },

  // Dispatch
  'dispatch-optimization': {
    tag: 'Dispatch',
    examples: { day: ex.dispatchOptimizationExample },
    response: 'optimization_result: dispatch_schedule, economic_summary, operational_insights.',
    errors: [422],
  },
  'dispatch-mpc': {
    tag: 'Dispatch',
    description:
      'The dispatch body from now to the horizon with `current_soc` (or a `device_id` whose last reported state has one) and optional `soc_targets`. Plans from the interval in progress (or `start_time`); the energy left at the end is valued at the horizon\'s median import price after the discharge loss unless `terminal_soc` or `terminal_value_per_kwh` says otherwise. With a device the plan is kept: the next call warm-starts from it, `/api/realtime-dispatch` with `use_mpc_setpoint` sends its set-point (with `measured_site`, the battery power that holds the meter at the planned grid power). `forecasts.solar_forecast_scenarios` (other solar outlooks as likely) makes the plan\'s first-interval grid power suit them all.',
    examples: { evening_target_ev_and_pump: ex.mpcExample },
    response: 'plan (a schedule as dispatch-optimization answers), next_setpoint {timestamp, valid_until, battery_power_kw, grid_power_kw, soc_target, action}, plan_id, warm_start.',
    errors: [404, 422],
  },
  'dispatch-mpc-plan': { tag: 'Dispatch', response: 'plan (per interval: timestamp, battery_power_kw, grid_power_kw, soc) and tracking (measured SOC against what the previous plan expected), newest first.', errors: [404, 409] },
  'battery-sizing': {
    tag: 'Dispatch',
    description:
      'A year of hourly load and PV (`pv_kw`, or a `pv_system` modelled under a derated clear sky), a tariff and the costs per kWh and per kW: one LP sizes energy and power for the highest NPV (costs annualised through the project-economics inputs), then the chosen size is valued by the project-economics module and compared with no battery and its two neighbours.',
    examples: { week: ex.batterySizingExample },
    response: 'energy_capacity_kwh, power_capacity_kw, npv, irr, compared_sizes, dispatch_summary, economics, method, solve_ms.',
    errors: [422],
  },
  'realtime-dispatch': { tag: 'Dispatch', examples: { discharge: ex.realtimeDispatchExample }, response: '`status: "success"` and the accepted command with its safety-check results.', errors: [404] },

  // Policy and economics
  'policy-compliance': { tag: 'Policy and economics', examples: { rooftop: ex.policyComplianceExample }, response: 'answer, sources, compliance_checklist, financial_incentives, next_steps, tier_info.' },
  'policy-compliance-freemium': {
    tag: 'Policy and economics',
    description: 'Limited per client address and day.',
    examples: { rooftop: ex.policyComplianceExample },
    response: 'Same as POST /api/policy-compliance.',
  },
  'regulatory-updates': { tag: 'Policy and economics', response: 'updates.' },
  'project-economics': { tag: 'Policy and economics', examples: { solar_plant: ex.projectEconomicsExample }, response: 'financial_metrics, cash_flow_projection, sensitivity_analysis, investment_recommendation.' },

  // Batch, edge, documentation
  'batch-process': {
    tag: 'Batch and edge',
    examples: { mixed: ex.batchExample },
    response: 'The batch results in request order (one failing operation does not fail the others), or 202 with batch_id when callback_url is given; the results are then POSTed, signed, to the callback.',
  },
  'batch-status': { tag: 'Batch and edge', response: 'The batch: status, progress and, once completed, its results.', errors: [404] },
  'edge-configure': {
    tag: 'Batch and edge',
    examples: { sync: { cloud_sync: true, local_storage_limit: '10GB', auto_cleanup_days: 30, performance_mode: 'balanced', security_level: 'high' } },
    response: '`status: "success"`, the node id and the stored configuration (fields left out keep their value).',
  },
  'edge-status': { tag: 'Batch and edge', response: 'edge_node_id, cloud_connectivity, local_storage_used, processing_capability, sync_status, models_cached.' },
  openapi: { tag: 'Documentation', response: 'The OpenAPI document.' },
  docs: {
    tag: 'Documentation',
    description: 'Swagger UI served by the service itself; `?asset=<name>` returns its script and style sheet.',
    response: 'An HTML page, or the asset named by `asset`.',
    errors: [404],
  },
};
