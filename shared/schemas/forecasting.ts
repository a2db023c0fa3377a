/** Requests of the forecasting endpoints (SPEC 4.1 /forecast, /api/price-forecast; 4.4 freemium). */
import { z } from 'zod';
import { price, seriesValue } from './bounds';

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
    })
    .default({ horizon: 24, model_type: 'ensemble', confidence_interval: 0.9, weather_integration: false, seasonal_adjustment: true }),
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
});
