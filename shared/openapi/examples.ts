/**
 * Example request bodies of the API document. Each must pass its route's zod schema
 * (test/unit/openapi.test.ts), and the main ones are sized so the service accepts them as they are.
 */

import { HOUR_MS } from '../domain/time';

/** A fixed origin, so the document is the same on every build. */
const EXAMPLE_START = Date.UTC(2025, 5, 1);

const isoHour = (i: number) => new Date(EXAMPLE_START + i * HOUR_MS).toISOString();

/** A clear-sky-like solar day in kW: zero at night, a half sine between 06:00 and 18:00 UTC. */
const solarKw = (hourOfDay: number, peakKw: number) => Math.round(Math.max(0, Math.sin((Math.PI * (hourOfDay - 6)) / 12)) * peakKw * 10) / 10;

export const registerExample = {
  email: 'operations@example.com',
  organization: 'Example Solar Ltd',
  use_case: 'Day-ahead forecasts for three rooftop sites',
  tier_preference: 'free',
};

/** Three days of hourly history: the forecast needs at least two. */
export const forecastExample = {
  historical_data: Array.from({ length: 72 }, (_, i) => ({ timestamp: isoHour(i), value: solarKw(i % 24, 480), unit: 'kW' })),
  forecast_config: { horizon: 24, model_type: 'ensemble', confidence_interval: 0.9, weather_integration: false, seasonal_adjustment: true, series_type: 'solar', location: 'Berlin' },
};

/** The same history with the caller's weather over it and the next day (ARCHITECTURE 9): GHI and temperature per hour. */
export const forecastWithWeatherExample = {
  historical_data: forecastExample.historical_data,
  forecast_config: { ...forecastExample.forecast_config, weather_integration: true },
  weather: Array.from({ length: 96 }, (_, i) => ({ timestamp: isoHour(i), ghi_wm2: solarKw(i % 24, 820), temperature_c: Math.round((17 + 6 * Math.sin((Math.PI * ((i % 24) - 9)) / 12)) * 10) / 10 })),
};

export const priceForecastExample = {
  historical_prices: Array.from({ length: 24 * 8 }, (_, i) => ({ timestamp: isoHour(i), price: 60 + 25 * Math.round(Math.sin((Math.PI * ((i % 24) - 9)) / 12) * 100) / 100, currency: 'EUR' })),
  market: 'EPEX-DE',
  forecast_horizon: 24,
  include_fundamentals: false,
  renewable_penetration: true,
  duck_curve_adjustment: true,
};

/** Days of history in the fundamentals example: the price models learn a regressor's effect over at least 35 days. */
const FUNDAMENTALS_EXAMPLE_DAYS = 36;
/** A day-ahead load forecast (MW) with a daily shape, and a wind forecast that swings by day. */
const loadMw = (i: number) => Math.round(40_000 + 8000 * Math.sin((Math.PI * ((i % 24) - 6)) / 12) + 3000 * Math.sin(i / 37));
const windMw = (i: number) => Math.round(3000 + 2500 * Math.sin(i / 29));

/** Prices with the load and wind forecasts as regressors (ARCHITECTURE 9): rows over the history and the 24 horizon hours. */
export const priceForecastFundamentalsExample = {
  historical_prices: Array.from({ length: 24 * FUNDAMENTALS_EXAMPLE_DAYS }, (_, i) => ({ timestamp: isoHour(i), price: Math.round((10 + 0.001 * (loadMw(i) - windMw(i))) * 100) / 100, currency: 'EUR' })),
  market: 'NordPool-system',
  forecast_horizon: 24,
  include_fundamentals: true,
  renewable_penetration: true,
  duck_curve_adjustment: false,
  timezone: 'Europe/Oslo',
  fundamentals: Array.from({ length: 24 * (FUNDAMENTALS_EXAMPLE_DAYS + 1) }, (_, i) => ({ timestamp: isoHour(i), load_forecast: loadMw(i), wind_forecast: windMw(i) })),
};

/**
 * One receding-horizon step (ARCHITECTURE 9): 24 h at hourly steps from the measured SOC, a time-of-use tariff,
 * an SOC target for the evening, an EV to charge by 07:00 and a pool pump to run 4 h in one block.
 */
export const mpcExample = {
  device_id: 'battery-001',
  current_soc: 0.42,
  forecasts: {
    solar_forecast: Array.from({ length: 24 }, (_, h) => solarKw(h, 40)),
    load_forecast: Array.from({ length: 24 }, (_, h) => (h >= 7 && h <= 21 ? 18 : 9)),
  },
  system_config: { battery_capacity_kwh: 60, battery_power_kw: 25, battery_min_soc: 0.1, battery_max_soc: 0.9, roundtrip_efficiency: 0.9, degradation_cost_per_kwh: 0.02 },
  tariff: {
    currency: 'EUR',
    timezone: 'Europe/Berlin',
    import_price: 0.22,
    export_price: 0.07,
    periods: [
      { name: 'peak', hours: [17, 18, 19, 20], import_price: 0.38 },
      { name: 'night', hours: [0, 1, 2, 3, 4, 5], import_price: 0.12 },
    ],
  },
  soc_targets: [{ timestamp: isoHour(17), soc: 0.8 }],
  ev: { arrival: isoHour(0), departure: isoHour(7), energy_kwh: 24, charger_kw: 11 },
  deferrable_loads: [{ id: 'pool-pump', energy_kwh: 6, power_kw: 1.5, window_start: isoHour(8), window_end: isoHour(20), single_block: true }],
  optimization_config: { objective: 'cost', interval_minutes: 60, start_time: isoHour(0) },
};

/** Battery power is positive when discharging (ARCHITECTURE 9, "Fractions and signs"). */
export const dispatchOptimizationExample = {
  forecasts: {
    solar_forecast: Array.from({ length: 24 }, (_, h) => solarKw(h, 400)),
    load_forecast: Array.from({ length: 24 }, (_, h) => (h >= 7 && h <= 21 ? 220 : 120)),
    price_forecast: Array.from({ length: 24 }, (_, h) => (h >= 17 && h <= 21 ? 0.32 : h >= 10 && h <= 15 ? 0.08 : 0.18)),
  },
  system_config: { battery_capacity_kwh: 500, battery_power_kw: 250, battery_min_soc: 0.1, battery_max_soc: 0.9, initial_soc: 0.5, roundtrip_efficiency: 0.9 },
  optimization_config: { objective: 'cost', time_horizon: 24, interval_minutes: 60, grid_export_limit: 300, demand_charges: false, start_time: isoHour(0) },
};

/**
 * A week of hourly load and PV under a time-of-use tariff with a monthly demand charge: a year (8,760 values)
 * is what sizing is for, a week keeps the document short (its savings are scaled to 365 days).
 */
export const batterySizingExample = {
  load_kw: Array.from({ length: 168 }, (_, i) => (i % 24 >= 7 && i % 24 <= 21 ? 220 : 120)),
  pv_kw: Array.from({ length: 168 }, (_, i) => solarKw(i % 24, 400)),
  start_time: isoHour(0),
  interval_minutes: 60,
  tariff: {
    currency: 'EUR',
    timezone: 'Europe/Berlin',
    import_price: 0.18,
    export_price: 0.06,
    periods: [
      { name: 'peak', weekdays: [1, 2, 3, 4, 5], hours: [17, 18, 19, 20, 21], import_price: 0.32 },
      { name: 'off_peak', hours: [0, 1, 2, 3, 4, 5], import_price: 0.1 },
    ],
    monthly_demand_charge_per_kw: 12,
  },
  battery_cost_per_kwh: 250,
  battery_cost_per_kw: 80,
  project_config: { project_lifetime: 12, discount_rate: 0.07, degradation_rate: 0.02, annual_expenses: 0 },
  incentives: { tax_credit: 0.3, depreciation_schedule: 'macrs_5' },
  max_energy_kwh: 2000,
  max_power_kw: 500,
};

export const realtimeDispatchExample = {
  device_id: 'battery-001',
  command: { action: 'discharge', power_kw: 100, duration_minutes: 30, priority: 'normal' },
  safety_checks: { soc_limits: true, temperature_check: true, grid_constraints: true },
};

export const policyComplianceExample = {
  query: 'Which permits and grid connection steps does a 500 kW rooftop solar installation need?',
  context: { region: 'DE', sector: 'commercial', project_size: '500 kW', installation_type: 'rooftop' },
  response_options: { include_citations: true, include_compliance_checklist: true, include_financial_incentives: true, detail_level: 'standard' },
};

/** Rates are fractions; `annual_revenue` equals the sum of `revenue_streams` (ARCHITECTURE 9). */
export const projectEconomicsExample = {
  project_config: {
    capital_cost: 1_000_000,
    annual_revenue: 150_000,
    annual_expenses: 20_000,
    project_lifetime: 25,
    discount_rate: 0.08,
    degradation_rate: 0.005,
    annual_energy_kwh: 1_400_000,
  },
  revenue_streams: { energy_sales: 120_000, capacity_payments: 20_000, ancillary_services: 5_000, carbon_credits: 5_000 },
  incentives: { tax_credit: 0.3, depreciation_schedule: 'macrs_5', grant_funding: 50_000 },
};

/** A day of hourly solar values with a four-hour gap at midday. */
export const interpolateExample = {
  type: 'solar',
  mode: 'fill_missing_blocks',
  data: Array.from({ length: 24 }, (_, h) => ({ timestamp: isoHour(h), value: h >= 10 && h <= 13 ? null : solarKw(h, 480) })),
  processing_options: { confidence_threshold: 0.5, seasonal_adjustment: true, weather_correlation: false, max_gap_hours: 6 },
  location: 'Berlin',
};

export const weatherDataExample = {
  location: { latitude: 52.52, longitude: 13.405, timezone: 'Europe/Berlin' },
  date_range: { start_date: '2025-06-01', end_date: '2025-06-02' },
  parameters: ['temperature', 'solar_radiation', 'wind_speed', 'cloud_cover'],
  forecast_mode: false,
};

export const trainExample = {
  customer_id: 'customer-001',
  site_id: 'site-berlin-1',
  training_config: {
    model_type: 'ensemble',
    hyperparameter_tuning: false,
    cross_validation_folds: 14,
    early_stopping: true,
    feature_engineering: { weather_features: true, calendar_features: true, lag_features: [24, 168], rolling_statistics: [24] },
  },
  data_requirements: { minimum_data_points: 168, validation_split: 0.2, test_split: 0.1 },
};

export const createClientExample = {
  client_id: 'client-001',
  name: 'Example Utility',
  contact_email: 'energy@example.com',
  tier: 'professional',
  services: ['forecasting', 'optimization'],
};

export const createCustomerExample = {
  client_id: 'client-001',
  customer_id: 'customer-001',
  contact_name: 'Ada Example',
  email: 'ada@example.com',
  location: 'Berlin',
  system_type: 'solar_plus_storage',
};

export const createDeviceExample = {
  customer_id: 'customer-001',
  device_type: 'battery',
  serial_number: 'BAT-2025-0001',
  manufacturer: 'Example Storage',
  capacity_kw: 250,
  installation_date: '2025-03-15',
  energy_capacity_kwh: 500,
  min_soc: 0.1,
  max_soc: 0.9,
};

export const nowcastDataPointsExample = {
  parameters: { forecast_window: 24, confidence_interval: 0.9, weather_integration: true, dispatch_optimization: false },
  data_points: [
    { timestamp: isoHour(10), value: 412.5, unit: 'kW' },
    { timestamp: isoHour(11), value: 455.1, unit: 'kW' },
  ],
  customer_id: 'customer-001',
  site_id: 'site-berlin-1',
};

export const uploadFormBExample = {
  customer_id: 'customer-001',
  site_id: 'site-berlin-1',
  region: 'eu-central-1',
  location: 'Berlin',
  s3_path: 'historical/customer-001/site-berlin-1/eu-central-1/berlin/unknown/20250601_000000_historical.csv',
};

/** Named examples of the action endpoints of SPEC 4.3, one per action. */
export const terminalExamples: Record<string, Record<string, unknown>> = {
  'terminal-assets': {
    add: { action: 'add', asset_id: 'inverter-001', name: 'Inverter 1', type: 'inverter', capacity_kw: 250, location: 'Berlin', components: [{ oem: 'Example', model: 'X-250', serial: 'SN-0001' }], customer_id: 'customer-001', site_id: 'site-berlin-1' },
    list: { action: 'list' },
    get: { action: 'get', asset_id: 'inverter-001' },
  },
  'terminal-schedule': {
    create: { action: 'create', asset_id: 'inverter-001', maintenance_type: 'preventive', scheduled_date: '2025-07-01T08:00:00Z', priority: 'medium', reason: 'Annual inspection' },
    list: { action: 'list', asset_id: 'inverter-001' },
  },
  'terminal-bom': {
    generate: { action: 'generate', asset_id: 'inverter-001', maintenance_type: 'preventive' },
    list: { action: 'list', asset_id: 'inverter-001' },
  },
  'terminal-order': {
    create: { action: 'create', asset_id: 'inverter-001', schedule_id: 'sched_example', bom_id: 'bom_example', assigned_technician: 'Tech A', estimated_duration_hours: 4, priority: 'medium' },
    list: { action: 'list', asset_id: 'inverter-001' },
    update: { action: 'update', order_id: 'wo_example', status: 'in_progress' },
  },
  'terminal-track': {
    subscribe: { action: 'subscribe', order_id: 'wo_example', callback_url: 'https://hooks.example.com/orders' },
    list: { action: 'list', order_id: 'wo_example' },
  },
  'terminal-detect': { run: { action: 'run', asset_id: 'inverter-001' }, list: { action: 'list' } },
  'terminal-diagnose': { run: { action: 'run', asset_id: 'inverter-001' }, list: { action: 'list' } },
};

export const terminalCustomerExample = { customer_id: 'customer-001' };

export const batchExample = {
  operations: [
    { type: 'forecast', customer_id: 'acme-farm-1', horizon: 24 },
    { type: 'interpolate', customer_id: 'acme-farm-1', mode: 'fill_missing_blocks', data: [{ timestamp: '2026-06-01T10:00:00Z', value: 4.1 }, { timestamp: '2026-06-01T11:00:00Z', value: null }, { timestamp: '2026-06-01T12:00:00Z', value: 4.6 }] },
  ],
  execution_mode: 'parallel',
};

export const pvSystemExample = {
  latitude: 52.52,
  longitude: 13.405,
  elevation_m: 34,
  capacity_kwp: 9.8,
  tilt_deg: 35,
  azimuth_deg: 180,
  losses_pct: 14,
  inverter_ac_kw: 8.2,
};

export const putSiteExample = { customer_id: 'customer-001', pv_system: pvSystemExample };

export const pvForecastSiteExample = { customer_id: 'customer-001', site_id: 'site-berlin-1', horizon_hours: 48, interval_minutes: 60 };

export const pvForecastInlineExample = {
  pv_system: pvSystemExample,
  horizon_hours: 3,
  interval_minutes: 60,
  start: '2025-06-21T09:00:00Z',
  weather: [
    { timestamp: '2025-06-21T10:00:00Z', ghi_wm2: 610, temperature_c: 21, wind_speed_ms: 3 },
    { timestamp: '2025-06-21T11:00:00Z', ghi_wm2: 720, temperature_c: 22, wind_speed_ms: 3 },
    { timestamp: '2025-06-21T12:00:00Z', ghi_wm2: 790, temperature_c: 23, wind_speed_ms: 3.5 },
  ],
};
