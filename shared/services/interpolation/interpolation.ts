/**
 * Data cleaning (SPEC 4.1 POST /interpolate, 4.3 /terminal/interpolation): the rows are put on their grid
 * (the most common step; off-grid rows are reported, not moved), gaps are filled and, in
 * `quality_enhancement`, outliers and stuck (stale) values replaced (shared/domain/interpolation), and the result is stored with its
 * gap statistics and the fill's accuracy measured on the request's own data by hiding known values.
 */
import { randomUUID } from 'node:crypto';
import { config } from '../../config';
import { BadRequest, NotFound, TierRowLimitExceeded } from '../../errors';
import { limitsOf } from '../../domain/accounts/tiers';
import { cleanSeries, MIN_PROFILE_DAYS, type CleanOptions, type CleanResult } from '../../domain/interpolation';
import { resolveLocation } from '../../domain/locations';
import { weatherOnGrid } from '../../domain/weather/hourly-on-grid';
import type * as z from 'zod';
import type { InterpolationRequest } from '../../schemas/interpolation';
import { listInterpolationResultsOf, saveInterpolationResult, type StoredInterpolationResult } from '../../store/interpolation-results-repo';
import { weatherFor } from '../../weather-providers';
import type { Caller } from '../../access/authentication';
import { withQuota } from '../../access/quota';
import { findOwnedCustomer, ownedCustomer } from '../accounts/tenants';
import { roundHalfUp } from '../../domain/rounding';
import { HOUR_MS, iso } from '../../domain/time';

/** A grid may hold at most this many times the rows sent (the rest would be invented data, not gaps). */
const MAX_GRID_EXPANSION = 10;

type Request = z.infer<typeof InterpolationRequest>;

interface Grid {
  t: number[];
  y: number[];
  stepMs: number;
  offGrid: { timestamp: string; value: number | null }[];
}

/** The rows on their grid: the most common step between consecutive rows; rows between grid points are set aside. */
export function gridOf(rows: readonly { t: number; value: number | null }[]): Grid {
  const steps = new Map<number, number>();
  for (let i = 1; i < rows.length; i++) {
    const d = rows[i].t - rows[i - 1].t;
    if (d <= 0) throw new BadRequest(`Invalid request: data timestamps must increase strictly; row ${i} (${iso(rows[i].t)}) ${d === 0 ? 'repeats' : 'comes before'} row ${i - 1}`);
    steps.set(d, (steps.get(d) ?? 0) + 1);
  }
  const stepMs = [...steps].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0][0];
  const t0 = rows[0].t;
  const length = Math.floor((rows[rows.length - 1].t - t0) / stepMs) + 1;
  if (length > MAX_GRID_EXPANSION * rows.length) throw new BadRequest(`Invalid request: the rows are too sparse for their most common step (${stepMs / 60_000} min): send the series at one regular step`);
  const t = Array.from({ length }, (_, i) => t0 + i * stepMs);
  const y = new Array<number>(length).fill(NaN);
  const offGrid: Grid['offGrid'] = [];
  for (const row of rows) {
    const k = (row.t - t0) / stepMs;
    if (Number.isInteger(k)) y[k] = row.value ?? NaN;
    else offGrid.push({ timestamp: iso(row.t), value: row.value });
  }
  return { t, y, stepMs, offGrid };
}

const kindOf = (type: string): CleanOptions['kind'] => (['solar', 'wind', 'load'].includes(type.toLowerCase()) ? (type.toLowerCase() as CleanOptions['kind']) : 'generic');

/** Runs of missing grid points: count, mean and longest length in steps. */
function gapRuns(y: readonly number[]): number[] {
  const runs: number[] = [];
  let run = 0;
  for (const v of [...y, 0]) {
    if (Number.isNaN(v)) run++;
    else if (run) {
      runs.push(run);
      run = 0;
    }
  }
  return runs;
}

export async function interpolate(caller: Caller, body: Request) {
  const maxRows = limitsOf(caller.tier, config().ENTERPRISE_QUOTA).max_rows_per_cleaning ?? Infinity;
  if (body.data.length > maxRows) {
    throw new TierRowLimitExceeded(`This request has ${body.data.length} rows; the ${caller.tier} tier cleans at most ${maxRows} rows per request`, { current_tier: caller.tier, limit: maxRows, used: body.data.length });
  }
  const rows = body.data.map((r, i) => {
    const t = Date.parse(r.timestamp);
    if (Number.isNaN(t)) throw new BadRequest(`Invalid request: data.${i}.timestamp "${r.timestamp}" is not an ISO 8601 timestamp`);
    return { t, value: r.value };
  });
  if (body.customer_id && !(await findOwnedCustomer(caller, body.customer_id))) await ownedCustomer(caller, body.customer_id);
  const place = body.location ? resolveLocation(body.location) : undefined;
  if (body.location && !place) throw new BadRequest(`Unknown location: ${body.location}`);
  const latitude = body.latitude ?? place?.latitude;
  const longitude = body.longitude ?? place?.longitude;
  const grid = gridOf(rows);
  const opts = body.processing_options;
  const stepMinutes = grid.stepMs / 60_000;

  return withQuota(caller, 'data_cleaning_operations', async () => {
    const weather =
      opts.weather_correlation && latitude !== undefined && longitude !== undefined
        ? // Hourly values are means of the hour before their label: the hour after the last row's closes the grid.
          (await weatherFor({ latitude, longitude, start: new Date(Math.floor(grid.t[0] / HOUR_MS) * HOUR_MS), end: new Date(Math.floor(grid.t[grid.t.length - 1] / HOUR_MS) * HOUR_MS + 2 * HOUR_MS) })).points
        : [];
    const options: CleanOptions = {
      method: 'adaptive',
      maxGapSteps: Math.max(0, Math.floor((opts.max_gap_hours * 60) / stepMinutes)),
      detectOutliers: body.mode === 'quality_enhancement',
      detectStale: body.mode === 'quality_enhancement',
      seasonalAdjustment: opts.seasonal_adjustment,
      kind: kindOf(body.type),
      latitude,
      longitude,
      capacity: body.capacity_kw,
      confidenceThreshold: opts.confidence_threshold,
      ...(weather.length ? { exogenous: { ghi_wm2: weatherOnGrid(grid.t, weather).ghi_wm2 } } : {}),
    };
    const series = { t: grid.t, y: grid.y, stepMinutes };
    const runs = gapRuns(grid.y);
    const typicalGap = runs.length ? Math.max(1, Math.min(options.maxGapSteps, [...runs].sort((a, b) => a - b)[Math.floor(runs.length / 2)])) : 1;
    const known = grid.y.filter(Number.isFinite).length;
    // Too few known values to hide runs of the typical gap in: no accuracy is claimed.
    const result = cleanSeries(series, known >= 4 * typicalGap + 4 ? { ...options, accuracyGapSteps: typicalGap } : options);
    const replaced = new Set([...result.outlierIndices, ...result.staleIndices]);
    const missingBefore = grid.y.filter((v) => Number.isNaN(v)).length;
    const filled = result.values.filter((v, i) => Number.isNaN(grid.y[i]) && Number.isFinite(v)).length;
    const usableBefore = grid.y.filter((v, i) => Number.isFinite(v) && !replaced.has(i)).length;
    const usableAfter = result.values.filter(Number.isFinite).length;
    const qualityImprovement = (usableAfter - usableBefore) / grid.t.length;
    const accuracy = accuracyMetrics(grid.y, result.accuracy);
    const stored: StoredInterpolationResult = {
      result_id: `int_${randomUUID()}`,
      account_id: caller.accountId,
      customer_id: body.customer_id ?? null,
      site_id: body.site_id ?? null,
      processed_at: new Date().toISOString(),
      method: methodLabel(result.gaps.map((g) => g.method)),
      asset_ids: body.asset_ids ?? [],
      data_window: { start: iso(grid.t[0]), end: iso(grid.t[grid.t.length - 1]) },
      gap_statistics: {
        total_gaps: runs.length,
        average_gap_minutes: roundHalfUp(runs.length ? (runs.reduce((a, b) => a + b, 0) / runs.length) * stepMinutes : 0, 2, null)!,
        largest_gap_minutes: Math.max(0, ...runs) * stepMinutes,
        coverage_improvement_percent: roundHalfUp((100 * (usableAfter - usableBefore)) / grid.t.length, 2, null)!,
      },
      performance_metrics: accuracy,
      weather_features: {
        mean_temperature_c: weather.length ? roundHalfUp(weather.reduce((s, w) => s + w.temperature_c, 0) / weather.length, 2, null) : null,
        mean_irradiance_wm2: weather.length ? roundHalfUp(weather.reduce((s, w) => s + w.solar_radiation_wm2, 0) / weather.length, 2, null) : null,
      },
    };
    await saveInterpolationResult(stored);
    const unused: string[] = [];
    if (opts.weather_correlation && !weather.length) {
      unused.push(latitude === undefined || longitude === undefined ? 'processing_options.weather_correlation: not used without a location (send location, or latitude and longitude)' : 'processing_options.weather_correlation: not used: the weather provider had no irradiance for the span');
    }
    if (opts.seasonal_adjustment && grid.t.length < MIN_PROFILE_DAYS * ((24 * 60) / stepMinutes)) unused.push(`processing_options.seasonal_adjustment: not used: a daily profile needs at least ${MIN_PROFILE_DAYS} days of series`);
    return {
      cleaned_data: grid.t.map((t, i) => ({ timestamp: iso(t), value: Number.isFinite(result.values[i]) ? result.values[i] : null, quality: result.quality[i] })),
      processing_stats: {
        rows_processed: body.data.length,
        missing_filled: filled,
        outliers_detected: result.outlierIndices.length,
        stale_values_detected: result.staleIndices.length,
        quality_improvement: roundHalfUp(qualityImprovement, 4, null)!,
        grid_step_minutes: stepMinutes,
        missing_before: missingBefore,
        left_unfilled: result.values.filter((v) => !Number.isFinite(v)).length,
        off_grid_points: grid.offGrid,
        gaps: result.gaps.map((g) => ({ start: iso(grid.t[g.start]), end: iso(grid.t[g.end]), steps: g.steps, method: g.method })),
      },
      result_id: stored.result_id,
      unused_inputs: unused,
    };
  });
}

/** `adaptive` when gaps were filled by more than one method, else that method. */
function methodLabel(methods: string[]): string {
  const used = [...new Set(methods.filter((m) => m !== 'unfilled'))];
  return used.length === 1 ? used[0] : used.length ? 'adaptive' : 'none';
}

/** The fill's accuracy on the request's own known values, hidden in runs of the request's typical gap length (cleanSeries' `accuracy`). */
function accuracyMetrics(y: readonly number[], measured: CleanResult['accuracy']): StoredInterpolationResult['performance_metrics'] {
  const known = y.filter(Number.isFinite);
  if (!measured?.runs || !Number.isFinite(measured.rmse)) return { rmse_kw: null, mae_kw: null, r2_score: null, nrmse_percent: null };
  const mean = known.reduce((a, b) => a + b, 0) / known.length;
  const variance = known.reduce((s, v) => s + (v - mean) ** 2, 0) / known.length;
  const range = Math.max(...known) - Math.min(...known);
  return {
    rmse_kw: roundHalfUp(measured.rmse, 4, null),
    mae_kw: roundHalfUp(measured.mae, 4, null),
    r2_score: variance > 0 ? roundHalfUp(Math.max(0, Math.min(1, 1 - measured.rmse ** 2 / variance)), 4, null) : null,
    nrmse_percent: range > 0 ? roundHalfUp((100 * measured.rmse) / range, 2, null) : null,
  };
}

/** POST /terminal/interpolation: the customer's stored results, newest first. */
export async function listInterpolationResults(caller: Caller, customerId: string) {
  const owned = await findOwnedCustomer(caller, customerId);
  const results = owned ? (await listInterpolationResultsOf(caller.accountId)).filter((r) => r.customer_id === customerId).reverse() : [];
  if (!results.length) throw new NotFound('No interpolation results found');
  return { success: true, customer_id: customerId, interpolation_results: results.map(({ account_id: _a, ...r }) => r), count: results.length };
}
