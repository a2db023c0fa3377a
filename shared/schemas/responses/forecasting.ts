/** Success bodies of the forecasting endpoints (SPEC 2 "Generated forecast", "Freemium forecast"; 4.1; 4.4). */
import * as z from 'zod';
import { PvSystem } from './ingestion';
import { timestamp } from './common';

/** Which weather the models were given (ARCHITECTURE 9). */
const WeatherUsed = z
  .looseObject({ source: z.string(), variables: z.array(z.string()), note: z.string().optional() })
  .meta({ id: 'WeatherUsed', description: '`source`: request, the provider (open-meteo, offline-climatology) or none; `variables` those the models were given; `note` why not, or what was assumed.' });

const AccuracyMetrics = z.looseObject({ mape: z.number().nullable(), rmse: z.number().nullable(), r_squared: z.number().nullable() });

/** SPEC 4.1 POST /forecast and POST /api/generate-forecast. */
export const ForecastResponse = z
  .looseObject({
    forecast: z.array(z.looseObject({ timestamp: timestamp(), value: z.number(), confidence_lower: z.number(), confidence_upper: z.number(), unit: z.string() })),
    model_performance: z.looseObject({ accuracy_metrics: AccuracyMetrics, model_used: z.string(), training_duration: z.string() }),
    actionable_insights: z.array(z.string()),
    weather: WeatherUsed.optional(),
    notes: z.array(z.string()).optional().meta({ description: 'Inputs accepted but not used, and why.' }),
  })
  .meta({ id: 'ForecastResponse' });

/** SPEC 4.1 POST /api/price-forecast. */
export const PriceForecastResponse = z
  .looseObject({
    price_forecast: z.array(
      z.looseObject({ timestamp: timestamp(), price: z.number(), confidence_interval: z.tuple([z.number(), z.number()]), currency: z.string(), market_factors: z.array(z.string()) }),
    ),
    market_insights: z.looseObject({ peak_price_time: timestamp(), expected_volatility: z.string(), renewable_impact: z.string() }),
    model_used: z.string().optional(),
    market: z.string().optional(),
    fundamentals_used: z.array(z.string()).optional(),
    unused_inputs: z.array(z.string()).optional(),
  })
  .meta({ id: 'PriceForecastResponse' });

const TuningEffect = z.looseObject({ rmse_untuned_kw: z.number(), rmse_tuned_kw: z.number(), improvement_pct: z.number(), days: z.number().int() }).nullable();

export const PvForecastResponse = z
  .looseObject({
    status: z.literal('success'),
    pv_system: PvSystem,
    specs_source: z.string(),
    weather_source: z.string(),
    tuned: z.boolean(),
    tuning_effect: TuningEffect,
    forecast_start: timestamp(),
    horizon_hours: z.number(),
    interval_minutes: z.number().int(),
    energy_kwh: z.number(),
    forecasts: z.array(z.looseObject({ timestamp: timestamp(), p10_kw: z.number(), p50_kw: z.number(), p90_kw: z.number(), poa_wm2: z.number(), cell_temp_c: z.number() })),
  })
  .meta({ id: 'PvForecastResponse' });

export const PvEstimatedActualsResponse = z
  .looseObject({
    status: z.literal('success'),
    customer_id: z.string(),
    site_id: z.string(),
    pv_system: PvSystem,
    specs_source: z.string(),
    weather_source: z.string(),
    tuned: z.boolean(),
    tuning_effect: TuningEffect,
    interval_minutes: z.number().int(),
    estimated_energy_kwh: z.number(),
    estimated_actuals: z.array(z.looseObject({ timestamp: timestamp(), estimated_kw: z.number(), measured_kw: z.number().nullable(), poa_wm2: z.number(), cell_temp_c: z.number() })),
  })
  .meta({ id: 'PvEstimatedActualsResponse' });

/** SPEC section 2 "Freemium forecast". */
export const FreemiumForecastResponse = z
  .looseObject({
    status: z.literal('success'),
    forecast: z.looseObject({
      site_name: z.string(),
      location: z.string(),
      manufacturer: z.string(),
      forecast_hours: z.literal(24),
      generated_at: timestamp(),
      model_type: z.string(),
      forecasts: z.array(z.looseObject({ timestamp: timestamp(), hour_ahead: z.number().int(), kWh_forecast: z.number(), confidence: z.number() })),
      summary: z.looseObject({ total_kwh_24h: z.number(), peak_kwh: z.number(), average_hourly_kwh: z.number(), peak_hour: timestamp() }),
    }),
  })
  .meta({ id: 'FreemiumForecastResponse' });

/** SPEC section 2 "Generated forecast" (GET /forecast, one site). */
export const GeneratedForecast = z
  .looseObject({
    forecast_id: z.string(),
    customer_id: z.string(),
    site_id: z.string(),
    generated_at: timestamp(),
    horizon_hours: z.number().int(),
    forecasts: z.array(
      z.looseObject({
        timestamp: timestamp(),
        predicted_power_kw: z.number(),
        confidence_interval: z.looseObject({ lower: z.number(), upper: z.number() }),
        weather_conditions: z.looseObject({ temperature_c: z.number().nullable(), irradiance_w_m2: z.number().nullable(), wind_speed_m_s: z.number().nullable() }),
      }),
    ),
    metadata: z.looseObject({ model_version: z.string(), training_data_points: z.number().int(), model_accuracy: z.number().nullable() }),
    weather: WeatherUsed.optional(),
    forecast_start: timestamp().optional().meta({ description: 'The first forecast step.' }),
    data_age_hours: z.number().optional().meta({ description: 'How old the stored data is at the request, where it is older than the horizon.' }),
    notes: z.array(z.string()).optional(),
  })
  .meta({ id: 'GeneratedForecast' });

/** GET /forecast: one site's forecast; without `site_id`, the first site's with every site's in `site_forecasts`. */
export const CustomerForecastResponse = GeneratedForecast.extend({ site_forecasts: z.array(GeneratedForecast).optional() }).meta({ id: 'CustomerForecastResponse' });
