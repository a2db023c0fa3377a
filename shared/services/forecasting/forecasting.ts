/**
 * The forecasting endpoints over the engine (shared/domain/forecasting): POST /forecast (and
 * /api/generate-forecast), POST /api/price-forecast, and the freemium forecast. Each request consumes one
 * forecast of the caller's monthly quota (the freemium one is limited per address and e-mail instead).
 */
import { Readable } from 'node:stream';
import { config } from '../../config';
import { BadRequest, RateLimited } from '../../errors';
import { InvalidCsv, standardiseCsv, type StandardRow } from '../../domain/ingest';
import { resolveLocation } from '../../domain/locations';
import { forecastSeries, type EngineResult } from '../../domain/forecasting/engine';
import { forecastTiming } from '../../domain/forecasting/forecast-timing';
import { MIN_CALIBRATION_DAYS } from '../../domain/forecasting/price';
import { inferKind } from '../../domain/forecasting/kind';
import { isHolidayRegion } from '../../domain/forecasting/calendar';
import { forecastInsights, marketReading } from '../../domain/forecasting/insights';
import { ForecastInputError, regularise } from '../../domain/forecasting/regularise';
import type { FitContext, RegularSeries, SeriesKind } from '../../domain/forecasting/types';
import type { MultipartBody } from '../../schemas/request-body';
import type * as z from 'zod';
import type { ForecastRequest, PriceForecastRequest } from '../../schemas/forecasting';
import { incrementDailyCounter } from '../../store/stats-repo';
import { recordLead } from '../../store/leads-repo';
import type { Caller } from '../../access/authentication';
import { requestWeather, type ForecastWeather } from './forecast-weather';
import { withQuota } from '../../access/quota';
import { secondsUntilReset, takeDailyAllowance } from '../../access/rate-limit';
import { roundHalfUp } from '../../domain/rounding';
import { HOUR_MS, iso } from '../../domain/time';

type EngineContext = Omit<FitContext, 'kind'> & { kind?: SeriesKind };

/** Input problems of the engine as 400s that say what to fix. */
function asBadRequest<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof ForecastInputError) throw new BadRequest(err.message);
    throw err;
  }
}

/**
 * Regularises points and runs the engine; input problems become 400s that say what to fix. The context may
 * be built from the regular series and horizon (exogenous inputs aligned to its grid), and may be awaited.
 */
async function runEngine(points: { t: number; value: number }[], horizonHours: number, coverage: number, modelType: string, contextFor: EngineContext | ((series: RegularSeries, horizonSteps: number) => EngineContext | Promise<EngineContext>)) {
  const series = asBadRequest(() => regularise(points));
  const horizonSteps = Math.round((horizonHours * 60) / series.stepMinutes);
  const context = typeof contextFor === 'function' ? await contextFor(series, horizonSteps) : contextFor;
  const kind = context.kind ?? inferKind(series);
  const result = asBadRequest(() => forecastSeries(series, { horizonSteps, coverage, modelType, context: { ...context, kind } }));
  return { series, kind, result };
}

/** The horizon's step times after a regular series. */
const horizonTimes = (series: RegularSeries, horizonSteps: number) => Array.from({ length: horizonSteps }, (_, j) => series.t[series.t.length - 1] + (j + 1) * series.stepMinutes * 60_000);

const parseTime = (timestamp: string, field: string): number => {
  const t = Date.parse(timestamp);
  if (Number.isNaN(t)) throw new BadRequest(`Invalid request: ${field} "${timestamp}" is not an ISO 8601 timestamp`);
  return t;
};

function accuracy(result: EngineResult) {
  const v = result.validation[result.modelUsed] ?? Object.values(result.validation)[0];
  return { mape: roundHalfUp(v?.mape ?? NaN, 4), rmse: roundHalfUp(v?.rmse ?? NaN, 4), r_squared: roundHalfUp(v?.r2 ?? NaN, 4) };
}

const countForecast = () => incrementDailyCounter(new Date().toISOString().slice(0, 10), 'forecasts');

/**
 * Inputs of POST /forecast that the answer does not follow, each named with why (the price forecast's
 * `unused_inputs`). `seasonal_adjustment: false` cannot be honoured: every member models the daily (and
 * weekly) cycle, which is what makes it a forecast of solar, wind or load at all.
 */
function unusedForecastInputs(body: z.infer<typeof ForecastRequest>): string[] {
  const unused: string[] = [];
  if (!body.forecast_config.seasonal_adjustment) {
    unused.push('seasonal_adjustment: false is not applied: every model captures the daily and weekly cycle of the series (clear-sky profile, calendar terms, seasonal smoothing), so the forecast is seasonally adjusted regardless');
  }
  if (body.weather && !body.forecast_config.weather_integration) unused.push('weather: sent without forecast_config.weather_integration: true, so not used');
  return unused;
}

/** POST /forecast and POST /api/generate-forecast. */
export async function generateForecast(caller: Caller, body: z.infer<typeof ForecastRequest>) {
  const units = new Set(body.historical_data.map((p) => p.unit));
  if (units.size > 1) throw new BadRequest(`Invalid request: historical_data mixes units (${[...units].join(', ')}); send one unit`);
  const unit = body.historical_data[0].unit;
  const points = body.historical_data.map((p, i) => ({ t: parseTime(p.timestamp, `historical_data.${i}.timestamp`), value: p.value }));
  const cfg = body.forecast_config;
  const place = cfg.location ? resolveLocation(cfg.location) : undefined;
  if (cfg.location && !place) throw new BadRequest(`Unknown location: ${cfg.location}`);
  if (cfg.country && !isHolidayRegion(cfg.country)) throw new BadRequest(`Invalid request: forecast_config.country ${cfg.country} is not a country (or subdivision) whose holidays are known; use ISO 3166-1 such as GB, US or US-CA`);
  const latitude = cfg.latitude ?? place?.latitude;
  const longitude = cfg.longitude ?? place?.longitude;
  // The calendar of the series: local hours and weekdays in its zone, and its country's public holidays.
  const timezone = cfg.timezone ?? place?.timezone;
  const country = cfg.country ?? place?.countryCode;
  const weatherPlace = latitude !== undefined && longitude !== undefined ? { latitude, longitude, timezone } : undefined;
  const unused = unusedForecastInputs(body);
  return withQuota(caller, 'forecasts', async () => {
    let weather: ForecastWeather | undefined;
    const { series, result } = await runEngine(points, cfg.horizon, cfg.confidence_interval, cfg.model_type, async (regular, horizonSteps) => {
      weather = await requestWeather({ integrate: cfg.weather_integration, rows: body.weather, place: weatherPlace }, regular.t, horizonTimes(regular, horizonSteps));
      return { kind: cfg.series_type, latitude, longitude, timezone, country, ...(weather.history && weather.future ? { history: weather.history, future: weather.future } : {}) };
    });
    await countForecast();
    return {
      forecast: result.points.map((p) => ({ timestamp: iso(p.t), value: roundHalfUp(p.value, 3), confidence_lower: roundHalfUp(p.lower, 3), confidence_upper: roundHalfUp(p.upper, 3), unit })),
      model_performance: {
        accuracy_metrics: accuracy(result),
        model_used: result.modelUsed,
        training_duration: `${(result.fitMs / 1000).toFixed(3)} s`,
        validation: 'rolling-origin, on the request’s own history',
        member_weights: result.weights,
      },
      actionable_insights: forecastInsights(result.points, unit, series.stepMinutes),
      weather: (weather as ForecastWeather).used,
      unused_inputs: unused,
    };
  });
}

/** Days of fundamentals the price models need over the history: LEAR's shortest calibration plus a week of lags. */
const FUNDAMENTAL_HISTORY_DAYS = MIN_CALIBRATION_DAYS + 7;
/** Column names read as renewable output for `renewable_impact`. */
const RENEWABLE_COLUMN = /wind|solar|renewable|pv/i;

type FundamentalRows = NonNullable<z.infer<typeof PriceForecastRequest>['fundamentals']>;

interface AlignedFundamentals {
  history: Record<string, number[]>;
  future: Record<string, number[]>;
  /** Why they were not used, when they were not. */
  unused?: string;
}

/**
 * Fundamentals on the price series' grid: a value per history step and per horizon step (NaN where a row is
 * absent; the models interpolate history gaps). Rows off the grid or outside the two spans are ignored.
 * @throws BadRequest for a horizon hour some column does not cover (ARCHITECTURE 9), or a history too short
 */
function alignFundamentals(rows: FundamentalRows, series: RegularSeries, horizonSteps: number): AlignedFundamentals {
  const n = series.t.length;
  const stepMs = series.stepMinutes * 60_000;
  const names = [...new Set(rows.flatMap((row) => Object.keys(row).filter((k) => k !== 'timestamp')))];
  const history = Object.fromEntries(names.map((name) => [name, new Array<number>(n).fill(NaN)]));
  const future = Object.fromEntries(names.map((name) => [name, new Array<number>(horizonSteps).fill(NaN)]));
  const hoursGiven = new Map(names.map((name) => [name, new Set<number>()]));
  const seen = new Set<number>();
  rows.forEach((row, i) => {
    const t = parseTime(row.timestamp, `fundamentals.${i}.timestamp`);
    if (seen.has(t)) throw new BadRequest(`Invalid request: fundamentals.${i}.timestamp ${row.timestamp} repeats an earlier row; send one row per timestamp`);
    seen.add(t);
    const index = (t - series.t[0]) / stepMs;
    for (const name of names) {
      const value = row[name];
      if (typeof value !== 'number') continue;
      (hoursGiven.get(name) as Set<number>).add(Math.floor(t / HOUR_MS));
      if (!Number.isInteger(index) || index < 0) continue;
      if (index < n) history[name][index] = value;
      else if (index < n + horizonSteps) future[name][index - n] = value;
    }
  });
  const last = series.t[n - 1];
  const horizon = Array.from({ length: horizonSteps }, (_, j) => last + (j + 1) * stepMs);
  for (const name of names) {
    const missing = horizon.filter((t) => !(hoursGiven.get(name) as Set<number>).has(Math.floor(t / HOUR_MS)));
    if (missing.length) {
      throw new BadRequest(
        `Invalid request: fundamentals miss ${missing.length} of the ${horizonSteps} horizon hours for ${name} (first ${iso(missing[0])}); send a row with ${name} for every hour from ${iso(horizon[0])} to ${iso(horizon[horizonSteps - 1])}, or set include_fundamentals to false`,
      );
    }
  }
  const historyDays = (n * series.stepMinutes) / 1440;
  if (historyDays < FUNDAMENTAL_HISTORY_DAYS + 1) return { history: {}, future: {}, unused: `fundamentals: the price models that take them need at least ${FUNDAMENTAL_HISTORY_DAYS + 1} days of hourly prices, the history holds ${Math.floor(historyDays)}` };
  for (const name of names) {
    const first = history[name].findIndex(Number.isFinite);
    const coveredDays = first < 0 ? 0 : ((n - first) * series.stepMinutes) / 1440;
    if (coveredDays < FUNDAMENTAL_HISTORY_DAYS) {
      throw new BadRequest(
        `Invalid request: fundamentals cover ${Math.floor(coveredDays)} days of the price history for ${name}; send ${name} for at least the last ${FUNDAMENTAL_HISTORY_DAYS} days of historical_prices (the models learn its effect there) and every horizon hour`,
      );
    }
  }
  return { history, future };
}

/** How the forecast price moves with forecast renewable output over the horizon. */
function renewableReading(points: EngineResult['points'], future: Record<string, number[]>, currency: string): string | undefined {
  const name = Object.keys(future).find((k) => RENEWABLE_COLUMN.test(k));
  if (!name) return undefined;
  const values = future[name];
  const pairs = points.map((p, j) => ({ price: p.value, output: values[j] })).filter((x) => Number.isFinite(x.output));
  if (pairs.length < 4) return undefined;
  const sorted = [...pairs].sort((a, b) => b.output - a.output);
  const quarter = Math.max(1, Math.floor(pairs.length / 4));
  const mean = (xs: { price: number }[]) => xs.reduce((s, x) => s + x.price, 0) / xs.length;
  const high = mean(sorted.slice(0, quarter));
  const low = mean(sorted.slice(-quarter));
  return `${name} (regressor): the quarter of horizon hours with the most forecast output average ${roundHalfUp(high, 2)} ${currency}/MWh, the quarter with the least ${roundHalfUp(low, 2)}`;
}

/**
 * POST /api/price-forecast: the engine over price members (LEAR, the epftoolbox naive...), with the
 * duck-curve feature when asked and day-ahead fundamentals as regressors with include_fundamentals.
 * Inputs asked for but not usable are named in `unused_inputs`, not dropped silently.
 */
export async function priceForecast(caller: Caller, body: z.infer<typeof PriceForecastRequest>) {
  const currencies = new Set(body.historical_prices.map((p) => p.currency));
  if (currencies.size > 1) throw new BadRequest(`Invalid request: historical_prices mixes currencies (${[...currencies].join(', ')})`);
  const currency = body.historical_prices[0].currency;
  const points = body.historical_prices.map((p, i) => ({ t: parseTime(p.timestamp, `historical_prices.${i}.timestamp`), value: p.price }));
  const unused: string[] = [];
  if (body.include_fundamentals && !body.fundamentals) unused.push('include_fundamentals: no fundamentals were sent; send a fundamentals array of {timestamp, load_forecast, ...} over the history and the horizon');
  if (body.fundamentals && !body.include_fundamentals) unused.push('fundamentals: sent without include_fundamentals: true, so not used as regressors');
  if (body.renewable_penetration && !(body.include_fundamentals && body.fundamentals?.some((row) => Object.keys(row).some((k) => RENEWABLE_COLUMN.test(k))))) {
    unused.push('renewable_penetration: no wind, solar or renewable forecast among the fundamentals used; send one (e.g. wind_forecast) with include_fundamentals: true');
  }
  let aligned: AlignedFundamentals | undefined;
  return withQuota(caller, 'forecasts', async () => {
    const { result } = await runEngine(points, body.forecast_horizon, body.confidence_interval, 'ensemble', (series, horizonSteps) => {
      aligned = body.include_fundamentals && body.fundamentals ? alignFundamentals(body.fundamentals, series, horizonSteps) : undefined;
      if (aligned?.unused) unused.push(aligned.unused);
      const exogenous = aligned && !aligned.unused ? { history: aligned.history, future: aligned.future } : {};
      return { kind: 'price', timezone: body.timezone, options: { duckCurve: body.duck_curve_adjustment }, ...exogenous };
    });
    await countForecast();
    const reading = marketReading(result.points, currency);
    const used = aligned && !aligned.unused ? Object.keys(aligned.future) : [];
    const renewable = used.length && body.renewable_penetration ? renewableReading(result.points, (aligned as AlignedFundamentals).future, currency) : undefined;
    const impact = reading.insights.renewable_impact;
    return {
      price_forecast: result.points.map((p, i) => ({
        timestamp: iso(p.t),
        price: roundHalfUp(p.value, 2),
        confidence_interval: [roundHalfUp(p.lower, 2), roundHalfUp(p.upper, 2)],
        currency,
        market_factors: reading.factors[i],
      })),
      market_insights: {
        ...reading.insights,
        renewable_impact: renewable ? `${impact}; ${renewable}` : body.renewable_penetration && !used.length ? `${impact} (renewable_penetration unused: see unused_inputs)` : impact,
      },
      model_used: result.modelUsed,
      market: body.market,
      member_weights: result.weights,
      fundamentals_used: used,
      unused_inputs: unused,
    };
  });
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

/** Hourly energy (kWh) from standardised rows: the sum of each interval's energy within the hour. */
function hourlyEnergy(rows: StandardRow[]): { t: number; value: number }[] {
  const hours = new Map<number, number>();
  for (const r of rows) {
    if (r.energy_kwh === null) continue;
    const h = Math.floor(r.t / HOUR_MS) * HOUR_MS;
    hours.set(h, (hours.get(h) ?? 0) + r.energy_kwh);
  }
  return [...hours].sort((a, b) => a[0] - b[0]).map(([t, value]) => ({ t, value }));
}

/** POST /v1/freemium-forecast: 24 hourly kWh values for a solar site from a CSV of its history. */
export async function freemiumForecast(form: MultipartBody) {
  const file = form.files.find((f) => f.field === 'file');
  if (!file || !file.data.length) throw new BadRequest('CSV file is required');
  const email = (form.fields.email ?? '').trim();
  if (!EMAIL.test(email) || email.length > 254) throw new BadRequest('Invalid email address format');
  const siteName = (form.fields.site_name ?? '').trim().slice(0, 200);
  const location = (form.fields.location ?? '').trim().slice(0, 200);
  const allowance = await takeDailyAllowance(`email:${email.toLowerCase()}`, config().FREEMIUM_FORECASTS_PER_EMAIL_PER_DAY);
  if (!allowance.allowed) throw new RateLimited(secondsUntilReset(allowance));

  let parsed;
  try {
    parsed = await standardiseCsv(Readable.from([file.data]));
  } catch (err) {
    if (err instanceof InvalidCsv) throw new BadRequest('Invalid CSV Format', { reason: err.reason });
    throw err;
  }
  const place = location ? resolveLocation(location) : undefined;
  const { series, result } = await runEngine(hourlyEnergy(parsed.rows), 24, 0.9, 'ensemble', {
    kind: 'solar',
    latitude: place?.latitude,
    longitude: place?.longitude,
    timezone: place?.timezone,
  });
  await recordLead(email, siteName, location);
  await countForecast();
  const values = result.points.map((p) => roundHalfUp(Math.max(0, p.value), 3));
  const peakValue = Math.max(...values);
  // The forecast follows the file's last hour, and hour_ahead counts from there: the answer states how far that
  // lies before the request (data_age_hours) and warns when forecast hours are already past.
  const now = Date.now();
  const timing = forecastTiming(series.t[series.t.length - 1], result.points.map((p) => p.t), now, 'send a file that reaches the last hours for a forecast of the coming ones');
  const forecasts = result.points.map((p, i) => ({
    timestamp: iso(p.t),
    hour_ahead: i + 1,
    kWh_forecast: values[i],
    // 1 where the forecast is certain (night), falling with the interval's width relative to the day's peak.
    confidence: roundHalfUp(peakValue > 0 ? Math.max(0, 1 - (p.upper - p.lower) / (2 * peakValue)) : 1, 3),
  }));
  const total = values.reduce((a, b) => a + b, 0);
  const peakIndex = values.indexOf(peakValue);
  return {
    status: 'success',
    forecast: {
      site_name: form.fields.site_name ?? '',
      location: form.fields.location ?? '',
      manufacturer: parsed.detectedManufacturer,
      forecast_hours: 24,
      generated_at: new Date(now).toISOString(),
      ...timing,
      hour_ahead_basis: 'hours after data_end, the last hour of the file (data_age_hours before generated_at)',
      model_type: result.modelUsed,
      forecasts,
      summary: { total_kwh_24h: total, peak_kwh: peakValue, average_hourly_kwh: total / 24, peak_hour: forecasts[peakIndex].timestamp },
    },
  };
}

