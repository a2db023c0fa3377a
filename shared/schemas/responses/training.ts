/** Success bodies of training, the model registry and stored results (SPEC 2 "Model record", "Stored forecast result"; 4.1; 4.3). */
import * as z from 'zod';
import { terminalAnswer, timestamp } from './common';

/** SPEC 4.1 POST /train. */
export const TrainResponse = z
  .looseObject({
    statusCode: z.number().int(),
    training_job: z.looseObject({ job_id: z.string(), status: z.string(), estimated_completion: timestamp(), training_features: z.array(z.string()) }),
    training_progress_url: z.string(),
    additional_jobs: z.array(z.looseObject({ job_id: z.string() })).optional().meta({ description: 'One job per further site, when site_id is absent.' }),
  })
  .meta({ id: 'TrainResponse' });

const AccuracyMetrics = z.looseObject({ mape: z.number().nullable(), rmse: z.number().nullable(), r_squared: z.number().nullable() });

/** SPEC 4.1 GET /api/training-status/{job_id}: the performance and artifacts exist once the job completed. */
export const TrainingStatusResponse = z
  .looseObject({
    job_id: z.string(),
    status: z.string(),
    progress: z.number(),
    model_performance: z
      .looseObject({ validation_accuracy: AccuracyMetrics, cross_validation_scores: z.array(z.number()), feature_importance: z.record(z.string(), z.number()) })
      .nullable()
      .optional(),
    model_artifacts: z.looseObject({ model_id: z.string(), deployment_ready: z.boolean(), size_mb: z.number() }).nullable().optional(),
  })
  .meta({ id: 'TrainingStatusResponse' });

/** SPEC 4.1 GET /results and GET /api/forecast-results: values without an actual yet are null. */
export const ForecastResultsResponse = z
  .looseObject({
    results: z.looseObject({
      forecast_data: z.array(
        z.looseObject({
          timestamp: timestamp(),
          predicted_value: z.number(),
          actual_value: z.number().nullable(),
          accuracy: z.number().nullable(),
          confidence_interval: z.tuple([z.number(), z.number()]),
          forecast_id: z.string().optional(),
        }),
      ),
      performance_metrics: z.looseObject({ overall_accuracy: z.number().nullable(), last_24h_accuracy: z.number().nullable(), trending: z.string().nullable(), model_version: z.string().nullable() }),
      business_insights: z.looseObject({ revenue_optimization: z.string(), peak_demand_management: z.string(), maintenance_recommendations: z.array(z.string()) }),
    }),
  })
  .meta({ id: 'ForecastResultsResponse' });

export const MarketplaceResponse = z
  .looseObject({
    available_models: z.array(z.looseObject({ model_id: z.string(), name: z.string(), use_case: z.string(), region: z.string(), price: z.string(), accuracy: z.number().nullable() })),
  })
  .meta({ id: 'MarketplaceResponse' });

/** SPEC section 2 "Model record". Fields that do not apply to a statistical model are named in `hyperparameters.not_applicable`. */
export const ModelRecord = z
  .looseObject({
    model_id: z.string(),
    model_name: z.string(),
    model_version: z.string(),
    model_type: z.enum(['forecasting', 'interpolation', 'diagnostics']),
    status: z.enum(['production', 'challenger', 'archived']),
    last_trained_at: timestamp(),
    training_data_window: z.looseObject({ start: timestamp(), end: timestamp() }),
    hyperparameters: z.looseObject({ layers: z.array(z.number().int()).nullable(), learning_rate: z.number().nullable(), dropout: z.number().nullable(), optimizer: z.string() }),
    training_metrics: z.looseObject({ epochs: z.number().int().nullable(), train_loss: z.number().nullable(), validation_loss: z.number().nullable(), early_stop_epoch: z.number().int().nullable() }),
    artifact_locations: z.looseObject({ model: z.string(), encoders: z.string(), config: z.string() }),
  })
  .meta({ id: 'ModelRecord' });

export const PromoteModelResponse = z
  .looseObject({ message: z.string(), model: ModelRecord, previous_production: ModelRecord.nullable() })
  .meta({ id: 'PromoteModelResponse' });

export const RollbackModelResponse = z.looseObject({ message: z.string(), model: ModelRecord, rolled_back: ModelRecord }).meta({ id: 'RollbackModelResponse' });

/** SPEC section 2 "Stored forecast result". */
const StoredForecastResult = z
  .looseObject({
    forecast_id: z.string(),
    site_id: z.string(),
    generated_at: timestamp(),
    model_name: z.string(),
    model_version: z.string(),
    horizon_hours: z.number().int(),
    forecast_points: z.array(z.looseObject({ timestamp: timestamp(), hour_ahead: z.number().int(), predicted_power_kw: z.number(), lower_conf_kw: z.number(), upper_conf_kw: z.number() })),
    metrics: z.looseObject({ training_rmse: z.number().nullable(), validation_rmse: z.number().nullable(), mape_percent: z.number().nullable(), smape_percent: z.number().nullable() }),
    weather_context: z.looseObject({ avg_temperature_c: z.number().nullable(), avg_irradiance_wm2: z.number().nullable(), avg_wind_speed_ms: z.number().nullable() }),
  })
  .meta({ id: 'StoredForecastResult' });

export const TerminalForecastResponse = terminalAnswer({ customer_id: z.string(), forecast_results: z.array(StoredForecastResult), count: z.number().int() }).meta({ id: 'TerminalForecastResponse' });

export const TerminalModelsResponse = terminalAnswer({ model_metrics: z.array(ModelRecord), count: z.number().int() }).meta({ id: 'TerminalModelsResponse' });
