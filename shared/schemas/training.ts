/** POST /train (SPEC 4.1) and the stored-results queries. */
import * as z from 'zod';
import { identifier } from './bounds';

const hours = z.array(z.number().int().min(1).max(24 * 28)).max(12);

export const TrainingRequest = z.object({
  /** ARCHITECTURE 9: optional; without them every site of the account with data. */
  customer_id: identifier().optional(),
  site_id: identifier().optional(),
  training_config: z.object({
    model_type: z.string().trim().min(1).max(64).default('ensemble'),
    /** No default: the trainer runs no separate search or iterative fit, so a value asked for is answered in unused_inputs. */
    hyperparameter_tuning: z.boolean().optional(),
    cross_validation_folds: z.number().int().min(1).max(60).default(14),
    early_stopping: z.boolean().optional(),
    feature_engineering: z
      .object({
        weather_features: z.boolean().default(true),
        calendar_features: z.boolean().default(true),
        lag_features: hours.default([24, 168]),
        rolling_statistics: hours.default([24]),
      })
      .default({ weather_features: true, calendar_features: true, lag_features: [24, 168], rolling_statistics: [24] }),
  }),
  data_requirements: z
    .object({
      minimum_data_points: z.number().int().min(1).max(10_000_000).default(168),
      validation_split: z.number().gt(0).lt(1).default(0.2),
      test_split: z.number().min(0).lt(0.5).default(0.1),
    })
    .refine((d) => d.validation_split + d.test_split < 1, { error: 'validation_split + test_split must be below 1' })
    .default({ minimum_data_points: 168, validation_split: 0.2, test_split: 0.1 }),
});

export const TrainingStatusPath = z.object({ job_id: identifier() });

/** POST /api/models/{model_id}/promote and /rollback. */
export const ModelPath = z.object({ model_id: identifier() });

/** GET /results and /api/forecast-results. */
export const ForecastResultsQuery = z.object({
  customer_id: identifier().optional(),
  site_id: identifier().optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
