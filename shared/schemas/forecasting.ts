/** Requests of the forecasting endpoints (SPEC 4.1 /forecast, /api/price-forecast; 4.4 freemium). */
import * as z from 'zod';
import { price, seriesValue } from './bounds';
import { TimeZone } from './weather';

/** ARCHITECTURE 9: at most 168 hours for POST /forecast, GET /forecast and the price forecast. */
export const MAX_HORIZON_HOURS = 168;

const horizon = z.number().int().min(1).max(MAX_HORIZON_HOURS, { error: `must be at most ${MAX_HORIZON_HOURS} hours` });

/** Coverage as a fraction; 50-99.9 are read as percentages (a request saying 95 means 0.95). */
const coverage = z
  .number()
  .gt(0)
  .max(99.9)
  .transform((x) => (x >= 1 ? x / 100 : x))
  .refine((x) => x >= 0.5 && x < 1, { error: 'must be a fraction between 0.5 and 1 (or a percentage between 50 and 99.9)' });

/** Rows of the caller's weather (ARCHITECTURE 9): as many as a 15-minute history and horizon can use. */
export const MAX_WEATHER_ROWS = 200_000 + MAX_HORIZON_HOURS * 4;

/**
 * One row of the caller's weather for POST /forecast: each value belongs to the series value with the same
 * timestamp (so it follows the history's own labelling); every field but the timestamp optional.
 */
export const ForecastWeatherRow = z.object({
  timestamp: z.string().min(1),
  /** Global horizontal irradiance, W/m2 (the solar constant is 1,361; ground-level GHI stays under 1,500). */
  ghi_wm2: z.number().min(0).max(1_500).optional(),
  /** Air temperature at 2 m, degrees C (the recorded extremes are -89.2 and 56.7). */
  temperature_c: z.number().min(-90).max(70).optional(),
  /** Wind speed, m/s (at hub or 10 m height, as the caller's feed gives it). */
  wind_speed_ms: z.number().min(0).max(100).optional(),
  cloud_cover_pct: z.number().min(0).max(100).optional(),
});
export type ForecastWeatherRow = z.infer<typeof ForecastWeatherRow>;

const forecastWeather = z
  .array(ForecastWeatherRow)
  .min(1)
  .max(MAX_WEATHER_ROWS)
  .refine((rows) => rows.some((r) => r.ghi_wm2 !== undefined || r.temperature_c !== undefined || r.wind_speed_ms !== undefined || r.cloud_cover_pct !== undefined), {
    error: 'has no value besides timestamps; send e.g. {"timestamp": ..., "ghi_wm2": 640, "temperature_c": 21.5}',
  });

export const ForecastRequest = z.object({
  historical_data: z
    .array(z.object({ timestamp: z.string().min(1), value: seriesValue(), unit: z.string().trim().min(1).max(10).default('kW') }))
    .min(1, { error: 'must hold at least 2 days of history' })
    .max(200_000),
  forecast_config: z
    .object({
      horizon: horizon.default(24),
      model_type: z.string().trim().min(1).default('ensemble'),
      confidence_interval: coverage.default(0.9),
      weather_integration: z.boolean().default(false),
      seasonal_adjustment: z.boolean().default(true),
      /** Not in the spec: what the series measures; inferred from the data when absent. */
      series_type: z.enum(['solar', 'wind', 'load', 'generic']).optional(),
      latitude: z.number().min(-90).max(90).optional(),
      longitude: z.number().min(-180).max(180).optional(),
      location: z.string().trim().min(1).max(200).optional(),
      /** Not in the spec: the zone of the calendar features (local hour, weekday); @default that of `location`, else UTC. */
      timezone: TimeZone.optional(),
      /**
       * Not in the spec: whose public holidays a load forecast treats like Sundays, ISO 3166-1 with an optional
       * subdivision as date-holidays names them ("GB", "US-CA", "DE-BY"); @default the country of `location`.
       */
      country: z
        .string()
        .trim()
        .regex(/^[A-Za-z]{2}(-[A-Za-z0-9]{1,3})?$/, { error: 'must be an ISO 3166-1 country code, optionally with a subdivision, such as GB or US-CA' })
        .transform((code) => code.toUpperCase())
        .optional(),
    })
    .default({ horizon: 24, model_type: 'ensemble', confidence_interval: 0.9, weather_integration: false, seasonal_adjustment: true }),
  /** Not in the spec (ARCHITECTURE 9): the caller's weather over the history and the horizon, used with weather_integration. */
  weather: forecastWeather.optional(),
});

/** ARCHITECTURE 9: at most 4 named columns of day-ahead fundamentals beside the timestamp. */
export const MAX_FUNDAMENTAL_COLUMNS = 4;
/** A column name: identifier-like, as `load_forecast` or `wind_forecast`. */
const FUNDAMENTAL_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** Rows of `{timestamp, <name>: number, ...}` over the history and the horizon; each value within the series bounds. */
const fundamentals = z
  .array(z.object({ timestamp: z.string().min(1) }).catchall(seriesValue()))
  .min(1)
  .max(100_000 + MAX_HORIZON_HOURS * 4)
  .superRefine((rows, ctx) => {
    const names = new Set<string>();
    for (const row of rows) for (const name of Object.keys(row)) if (name !== 'timestamp') names.add(name);
    const bad = [...names].filter((name) => !FUNDAMENTAL_NAME.test(name));
    if (bad.length) ctx.addIssue({ code: 'custom', message: `has column name(s) ${bad.join(', ')}: use letters, digits and _ starting with a letter (e.g. load_forecast)` });
    if (names.size > MAX_FUNDAMENTAL_COLUMNS) ctx.addIssue({ code: 'custom', message: `has ${names.size} columns (${[...names].join(', ')}); send at most ${MAX_FUNDAMENTAL_COLUMNS} besides timestamp` });
    if (!names.size) ctx.addIssue({ code: 'custom', message: 'has no column besides timestamp; send e.g. {"timestamp": ..., "load_forecast": 41200}' });
  });

export const PriceForecastRequest = z.object({
  historical_prices: z
    .array(z.object({ timestamp: z.string().min(1), price: price(), currency: z.string().trim().min(1).max(8).default('EUR') }))
    .min(1, { error: 'must hold at least 8 days of hourly prices' })
    .max(100_000),
  market: z.string().trim().min(1).max(40).default('unspecified'),
  forecast_horizon: horizon.default(24),
  include_fundamentals: z.boolean().default(false),
  renewable_penetration: z.boolean().default(false),
  duck_curve_adjustment: z.boolean().default(false),
  confidence_interval: coverage.default(0.9),
  /** Not in the spec (ARCHITECTURE 9): day-ahead fundamentals, regressors when include_fundamentals is true. */
  fundamentals: fundamentals.optional(),
  /** Not in the spec: the market's IANA zone, whose local days the price models work on. @default UTC */
  timezone: TimeZone.optional(),
});
