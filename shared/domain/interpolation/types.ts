/**
 * The common ground of the gap fills (index.ts): the options and result of a cleaning, the series, and the
 * context each fill reads (the seasonal profile, the clear sky, the irradiance models), built once per series
 * by context.ts.
 */
import type { IrradianceModel } from './irradiance-reference';

export type FillMethod = 'linear' | 'pchip' | 'seasonal_profile' | 'clear_sky_ratio' | 'blend' | 'analog_days' | 'day_regression' | 'envelope_kriging' | 'irradiance' | 'adaptive';
/** A method that fills by itself; `adaptive` picks among these (adaptive.ts). */
export type Concrete = Exclude<FillMethod, 'adaptive'>;

export interface CleanOptions {
  /** @default 'adaptive' */
  method?: FillMethod;
  /** Gaps longer than this stay missing. */
  maxGapSteps: number;
  /** Hampel filter and physical bounds (quality_enhancement). */
  detectOutliers: boolean;
  /** Stuck and stale runs (quality_enhancement; stale.ts). */
  detectStale?: boolean;
  /** Measure the fill's accuracy on known runs of this many steps (CleanResult.accuracy). */
  accuracyGapSteps?: number;
  /** Whether the seasonal profile may fill. */
  seasonalAdjustment: boolean;
  kind: 'solar' | 'wind' | 'load' | 'generic';
  latitude?: number;
  longitude?: number;
  /** Upper physical bound (1.2 x capacity) when known. */
  capacity?: number;
  /** A filled value whose confidence is below it stays missing. */
  confidenceThreshold?: number;
  /** Aligned with the grid (NaN where unknown); solar irradiance enables the `irradiance` method. */
  exogenous?: { ghi_wm2?: number[] };
}

/** `original` for input values kept and for gaps left unfilled; `interpolated` for fills; `stale` for stuck values (filled, or missing when their run is too long to fill). */
export type Quality = 'original' | 'interpolated' | 'stale';

export interface CleanResult {
  values: number[];
  quality: Quality[];
  /** 1 for originals; for fills 1 - RMSE(method, gap length) / spread of the series, from hiding known values. */
  confidence: number[];
  outlierIndices: number[];
  /** Stuck or stale values (stale.ts), replaced like outliers. */
  staleIndices: number[];
  /** With `accuracyGapSteps`: the fill's RMSE and MAE on that many steps of known values hidden at a time. */
  accuracy?: { rmse: number; mae: number; runs: number };
  /** `combination`: the candidates' fills weighted by their inverse validation error (see `adaptive`). */
  gaps: { start: number; end: number; steps: number; method: Concrete | 'combination' | 'unfilled' }[];
}

export interface Series {
  t: number[];
  y: number[];
  stepMinutes: number;
}

export interface Context {
  series: Series;
  options: CleanOptions;
  perDay: number;
  /** Seasonal profile per index (NaN where no neighbouring day knows the time). */
  profile?: number[];
  /** Clear-sky output per index for solar (0 at night), when the site is known or can be estimated. */
  clearSky?: number[];
  /** Expected output from the weather feed's irradiance and its residual model (irradiance-reference.ts), for solar with irradiance. */
  irradiance?: IrradianceModel;
  /** The same model with a constant clear-sky index: the array's envelope, the day's level and kriged edges, from the history alone. */
  envelope?: IrradianceModel;
}

export const known = (v: number) => Number.isFinite(v);

/** Whether the gap [a, b] has a known value just before and just after it, which every fill but `blend` starts from. */
export function edgesKnown(y: readonly number[], a: number, b: number): boolean {
  const left = a - 1;
  const right = b + 1;
  return !(left < 0 || right >= y.length || !known(y[left]) || !known(y[right]));
}
