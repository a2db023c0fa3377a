/**
 * The one accuracy of the service's forecasts and models (README, "Training and the model registry"): every
 * field named `accuracy` (model_accuracy, validation_accuracy of a model record, overall_accuracy, the
 * marketplace's accuracy, cross_validation_scores) is 1 - WAPE; a field holding another metric says which in its
 * name (`mape_percent`, `r_squared`, `rmse_kw`).
 */
export const ACCURACY_METRIC = '1 - WAPE: 1 - sum|actual - forecast| / sum|actual|, from 0 to 1 (floored at 0)';
