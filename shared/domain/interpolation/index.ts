/**
 * Data cleaning (ARCHITECTURE 7; clean-series.ts): gaps filled by one method per module (linear, pchip,
 * seasonal-profile, clear-sky-ratio, blend, analog-days, day-regression, envelope-kriging, irradiance) or by `adaptive`
 * (adaptive.ts, selection.ts), which picks per gap length what errs least on known runs hidden in the same series;
 * outliers (outliers.ts) and stuck or stale runs (stale.ts) are replaced by the fill and flagged, or only labelled
 * for a view of stored data (flags.ts).
 */
export type { CleanOptions, CleanResult, FillMethod, Quality } from './types';
export { ACCURACY_RUNS, cleanSeries, evaluateByHiding } from './clean-series';
export { ADAPTIVE_TRIALS } from './adaptive';
export { COMBINATION_MIN_GAIN, COMBINED_CANDIDATES, GATE_Z, PAIR_WEIGHTS } from './selection';
export { HAMPEL_HALF_WINDOW, HAMPEL_K } from './outliers';
export { MIN_PROFILE_DAYS, PROFILE_DAYS } from './seasonal-profile';
export { ANALOG_CONTEXT_MINUTES, ANALOG_EDGE_DECAY_MINUTES, ANALOG_NEIGHBOURS } from './analog-days';
export { staleIndices } from './stale';
export { flagValues, labelQuality, POINT_QUALITIES, type PointQuality } from './flags';
