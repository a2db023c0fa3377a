/**
 * Orient stage of asset operations (ARCHITECTURE 7): from the anomalies the Observe stage found, and the
 * series they were found in, the fault family that explains them best, with a confidence, the power at risk,
 * a root cause that cites the evidence, and actions ranked by the energy they save.
 *
 * Each family is scored on its own evidence; the highest confidence wins (ties: the larger energy at risk).
 * Confidences saturate with the strength of the evidence, 1 - exp(-strength / scale), times the share of the
 * pattern that fits, so that more hours, more days and cleaner separations give more confidence:
 *  - inverter_trip: hours at zero output, each weighted by min(1, expected / (TRIP_FULL_EXPECTED_SHARE x the day's
 *    clear-sky peak, or the rating)); scale TRIP_HOURS_SCALE.
 *  - sensor_fault: daylight hours of flatline and straight line, plus SPIKE_WEIGHT per spike, IMPOSSIBLE_WEIGHT per
 *    impossible value, NIGHT_LINE_WEIGHT per night-only line; scale 1.
 *  - curtailment (a flat cap below CLIPPING_AT_RATING_SHARE of the rating): hours held flat, each weighted by
 *    min(1, (potential - level) / (CAP_GAP_SCALE_SHARE x rating)); scale CAP_HOURS_SCALE. The same flat top at the
 *    rating is inverter clipping by design: family 'none'.
 *  - shading: (1 - exp(-days / SHADING_DAYS_SCALE)) x the share of days, between the first and last dip, that dip in
 *    the same time-of-day window.
 *  - string_fault: (1 - exp(-days after the drop / STEP_DAYS_SCALE)) x (1 - exp(-z / Z_SCALE)), z the drop over the
 *    day-to-day spread of the daily performance ratio, given that a step fits the days better than a line.
 *  - soiling / degradation: (1 - exp(-z / Z_SCALE)) x (1 - exp(-days / TREND_DAYS_SCALE)), z the decline over the spread,
 *    given that a line fits better than a step; soiling above SOILING_MIN_RATE_PER_DAY, degradation below it over
 *    at least DEGRADATION_MIN_DAYS.
 * With temperatures, each loss's confidence is lowered by the share of it that warmer weather explains (weighHeat).
 * Energy at risk is the production a fault takes away if it is not addressed, averaged over daylight (kWh a day
 * over the hours of daylight): a tripped inverter the day's whole expected output; shading and curtailment the
 * energy lost on a day they act; soiling, degradation and a string fault their loss share of the expected
 * output; a sensor fault nothing (the data is wrong, not the output). The diagnosis's energy at risk combines
 * every diagnosed fault (the primary, and each other family at MIN_ACTION_CONFIDENCE or more) without counting
 * the same hours twice (combinedRisk); it is critical when any of them is. Actions are ranked by energy at risk
 * times confidence.
 */
import { DAY_MS, HOUR_MS } from '../time';
import type { Anomaly, AnomalyKind, AssetSpec, OutputSeries } from './detection';
import { roundHalfUp } from '../rounding';

export type FaultFamily = 'soiling' | 'shading' | 'inverter_trip' | 'string_fault' | 'sensor_fault' | 'curtailment' | 'degradation' | 'none';

export interface DiagnosedFault {
  family: FaultFamily;
  confidence: number;
  energyAtRiskKw: number;
  energyLostKwh: number;
}

export interface Diagnosis {
  faultFamily: FaultFamily;
  /** 0..1, from the strength of the evidence (module comment). */
  confidence: number;
  severityLabel: 'critical' | 'warning' | 'normal';
  rootCause: string;
  /**
   * Production the diagnosed faults take away if not addressed, averaged over daylight, kW: each fault's share of
   * the expected output, combined on what the others leave (1 - product of (1 - share)), so that faults acting
   * on the same hours are not counted twice (module comment).
   */
  energyAtRiskKw: number;
  /** Energy lost over the data to the diagnosed faults, kWh: each anomaly once, whichever faults cite it. */
  energyLostKwh: number;
  /** Every diagnosed fault (the primary first, then by confidence), with its own energy at risk and lost. */
  faults: DiagnosedFault[];
  recommendedActions: { priority: 'high' | 'medium' | 'low'; action: string }[];
  evidence: Record<string, number | string>;
}

/** Zero output weighs fully when at least this share of the day's clear-sky peak (or of the rating) was expected. */
export const TRIP_FULL_EXPECTED_SHARE = 0.5;
/** Hours of weighted zero output that give 63% confidence in a trip. */
export const TRIP_HOURS_SCALE = 0.75;
/** Sensor evidence: one hour of stuck or invented daylight data, or one impossible value, counts 1. */
export const IMPOSSIBLE_WEIGHT = 1;
export const SPIKE_WEIGHT = 0.25;
export const NIGHT_LINE_WEIGHT = 0.1;
/** A flat top at or above this share of the rating is the inverter's limit (clipping by design), below it a curtailment. */
export const CLIPPING_AT_RATING_SHARE = 0.9;
/** A flat cap weighs fully when the potential exceeds it by this share of the rating. */
export const CAP_GAP_SCALE_SHARE = 0.1;
/** Hours of weighted flat cap that give 63% confidence. */
export const CAP_HOURS_SCALE = 1;
/** Underperformance anomalies shorter than this are dips within a day (shading candidates). */
export const SHADING_MAX_HOURS = 6;
/** Days of recurring dips that give 63% (times the recurrence). */
export const SHADING_DAYS_SCALE = 7;
/** Fewest days with a dip at the same time of day for shading. */
export const SHADING_MIN_DAYS = 2;
/** Daily performance ratio: steps with at least this share of the rating expected, around noon. */
const PR_MIN_EXPECTED_SHARE = 0.25;
const PR_MIN_EXPECTED_OF_PEAK = 0.5;
/** The daily ratio's upper envelope over this many days (centred) looks past cloudy days. */
const ENVELOPE_DAYS = 7;
/** Days of reference before an underperformance that the trend and the step are judged on. */
const REFERENCE_DAYS = 30;
/** Fewest days each side of a step. */
const MIN_STEP_SIDE_DAYS = 3;
/** A step must be at least this drop of the daily ratio to be a string fault. */
const STRING_MIN_DROP = 0.1;
export const STEP_DAYS_SCALE = 3;
export const Z_SCALE = 3;
export const TREND_DAYS_SCALE = 7;
/** Declines faster than this (share of the clean level per day) are soiling; slower ones, over months, degradation. */
export const SOILING_MIN_RATE_PER_DAY = 0.001;
export const DEGRADATION_MIN_DAYS = 90;
/** A trend must lose at least this share of the clean level over its span. */
const TREND_MIN_DECLINE = 0.05;
/** Floor on the day-to-day spread (share of the level): the clear-sky model is not better than this. */
const MIN_SPREAD = 0.02;
/** Power lost per degree C of warming, crystalline silicon (datasheets give 0.3-0.5%/degree). */
export const TEMPERATURE_COEFFICIENT = 0.004;
/** Families at or above this confidence contribute their actions. */
const MIN_ACTION_CONFIDENCE = 0.3;
/** An action is high priority when its confidence-weighted energy at risk reaches this share of the rating, medium at the second. */
const HIGH_PRIORITY_SHARE = 0.1;
const MEDIUM_PRIORITY_SHARE = 0.02;

interface Candidate {
  family: FaultFamily;
  confidence: number;
  /** For losses of output (shading, soiling, degradation, string fault): when it acted, and the share lost. */
  loss?: { spans: [number, number][]; share: number };
  energyAtRiskKw: number;
  /** The anomalies the family explains (their energy is what it cost). */
  members: readonly Anomaly[];
  severity: Diagnosis['severityLabel'];
  rootCause: string;
  evidence: Record<string, number | string>;
  actions: string[];
}

const saturate = (strength: number, scale: number) => (strength > 0 ? 1 - Math.exp(-strength / scale) : 0);
const kw = (x: number) => `${x.toFixed(x >= 10 ? 0 : x >= 1 ? 1 : 2)} kW`;
const pct = (x: number) => `${Math.round(100 * x)}%`;

/** Clock and date in the asset's time zone (UTC when none or an unknown one is given). */
function timeFormat(timezone?: string) {
  let zone = 'UTC';
  if (timezone) {
    try {
      new Intl.DateTimeFormat('en-GB', { timeZone: timezone });
      zone = timezone;
    } catch {
      zone = 'UTC';
    }
  }
  const clock = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
  return { zone, clock: (t: number) => clock.format(t), date: (t: number) => date.format(t) };
}

function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const lo = Math.floor(position);
  return sorted[lo] + (sorted[Math.ceil(position)] - sorted[lo]) * (position - lo);
}
const median = (values: readonly number[]) => quantile(values, 0.5);

/** One day's performance ratio (measured over expected around noon, median) and when the day is. */
interface DailyRatio {
  day: number;
  /** Epoch ms of the day's solar noon (approximately). */
  noon: number;
  ratio: number;
  /** Mean expected output over the day's daylight, kW. */
  meanExpectedKw: number;
}

/** Solar noon's time of day, ms after UTC midnight, from where the expected output is centred (12:00 UTC without one). */
function solarNoonMs(series: OutputSeries, expectedKw: readonly number[]): number {
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < series.t.length; i++) {
    const e = expectedKw[i];
    if (!(e > 0)) continue;
    const angle = (2 * Math.PI * (((series.t[i] % DAY_MS) + DAY_MS) % DAY_MS)) / DAY_MS;
    sx += e * Math.cos(angle);
    sy += e * Math.sin(angle);
  }
  if (sx === 0 && sy === 0) return DAY_MS / 2;
  return ((((Math.atan2(sy, sx) / (2 * Math.PI)) * DAY_MS) % DAY_MS) + DAY_MS) % DAY_MS;
}

/** Daylight of one day: hours with expected output, and its mean over them, kW. */
interface DaylightDay {
  /** Epoch ms of the day's solar noon (approximately). */
  noon: number;
  hours: number;
  meanKw: number;
}

function daylightDays(series: OutputSeries, expectedKw: readonly number[], noonMs: number): DaylightDay[] {
  const stepHours = series.stepMinutes / 60;
  const byDay = new Map<number, { steps: number; sum: number }>();
  for (let i = 0; i < series.t.length; i++) {
    if (!(expectedKw[i] > 0)) continue;
    const day = Math.floor((series.t[i] - noonMs + DAY_MS / 2) / DAY_MS);
    const entry = byDay.get(day) ?? { steps: 0, sum: 0 };
    entry.steps++;
    entry.sum += expectedKw[i];
    byDay.set(day, entry);
  }
  return [...byDay].map(([day, { steps, sum }]) => ({ noon: day * DAY_MS + noonMs, hours: steps * stepHours, meanKw: sum / steps }));
}

/**
 * What a day of daylight looks like around a period (the days within a day of it; all days when none): median
 * hours of daylight and median mean expected output. Energy at risk is the power a fault takes away averaged
 * over daylight, kW: the kWh it costs a day, divided by the hours of daylight.
 */
function daylightAround(days: readonly DaylightDay[], start: number, end: number): { hours: number; meanKw: number } {
  const near = days.filter((d) => d.noon >= start - DAY_MS && d.noon <= end + DAY_MS);
  const pick = near.length ? near : days;
  return { hours: median(pick.map((d) => d.hours)) || 12, meanKw: median(pick.map((d) => d.meanKw)) || 0 };
}

/**
 * Daily performance ratios, from steps outside anomalies other than underperformance (a trip or a stuck value
 * says nothing of the array's level). Days run from solar midnight to solar midnight.
 */
function dailyRatios(series: OutputSeries, expectedKw: readonly number[], capacityKw: number, excluded: readonly Anomaly[], noonMs: number): DailyRatio[] {
  const dayOf = (t: number) => Math.floor((t - noonMs + DAY_MS / 2) / DAY_MS);
  const spans = excluded.map((a) => [a.start, a.end]);
  const byDay = new Map<number, number[]>();
  for (let i = 0; i < series.t.length; i++) {
    if (!(expectedKw[i] > 0)) continue;
    const list = byDay.get(dayOf(series.t[i])) ?? [];
    list.push(i);
    byDay.set(dayOf(series.t[i]), list);
  }
  const out: DailyRatio[] = [];
  for (const [day, steps] of byDay) {
    const peak = Math.max(...steps.map((i) => expectedKw[i]));
    const central = steps.filter((i) => expectedKw[i] >= Math.max(PR_MIN_EXPECTED_SHARE * capacityKw, PR_MIN_EXPECTED_OF_PEAK * peak));
    const ratios = central
      .filter((i) => Number.isFinite(series.powerKw[i]) && !spans.some(([s, e]) => series.t[i] >= s && series.t[i] <= e))
      .map((i) => Math.max(0, series.powerKw[i]) / expectedKw[i]);
    const meanExpectedKw = steps.reduce((sum, i) => sum + expectedKw[i], 0) / steps.length;
    if (ratios.length >= 4 && ratios.length >= 0.5 * central.length) out.push({ day, noon: day * DAY_MS + noonMs, ratio: median(ratios), meanExpectedKw });
  }
  return out.sort((a, b) => a.day - b.day);
}

/** Upper envelope: the best ratio within ENVELOPE_DAYS days centred on each day. */
function envelopeOf(days: readonly DailyRatio[]): number[] {
  const half = Math.floor(ENVELOPE_DAYS / 2);
  return days.map((d) => Math.max(...days.filter((o) => Math.abs(o.day - d.day) <= half).map((o) => o.ratio)));
}

/** Mean absolute residual of a fit, as a share of the level. */
const spreadOf = (residuals: readonly number[], level: number) => Math.max(MIN_SPREAD, median(residuals.map(Math.abs)) / level);

interface LevelChange {
  /** A hinge: flat, then a line from `hingeAt` on (slope per day as a share of the level, total decline). */
  hingeAt: number;
  rate: number;
  decline: number;
  lineSpread: number;
  /** The best step: where, and the levels just before and after it (HALF_ENVELOPE + 1 days each side). */
  stepAt: number;
  before: number;
  after: number;
  stepSpread: number;
  level: number;
}

const HALF_ENVELOPE = Math.floor(ENVELOPE_DAYS / 2);

/**
 * A hinge (flat, then a straight decline: soiling, degradation) and a step (two levels: a string lost) fitted
 * to the envelope of the daily ratios by least absolute deviations; the better fit says which it is.
 */
function levelChange(days: readonly DailyRatio[], envelope: readonly number[]): LevelChange | null {
  const n = envelope.length;
  if (n < 2 * MIN_STEP_SIDE_DAYS) return null;
  const x = days.map((d) => d.day);
  const level = quantile(envelope, 0.9);
  let step = { at: -1, cost: Infinity };
  let hinge = { at: -1, slope: 0, flat: NaN, cost: Infinity };
  for (let k = MIN_STEP_SIDE_DAYS; k <= n - MIN_STEP_SIDE_DAYS; k++) {
    const before = median(envelope.slice(0, k));
    const after = median(envelope.slice(k));
    const stepCost = envelope.reduce((sum, v, i) => sum + Math.abs(v - (i < k ? before : after)), 0);
    if (stepCost < step.cost) step = { at: k, cost: stepCost };
    // Hinge at day k - 1: flat at the median before, then the median slope of the later days from that point.
    const origin = x[k - 1];
    const slope = median(envelope.slice(k).map((v, j) => (v - before) / (x[k + j] - origin)));
    const hingeCost = envelope.reduce((sum, v, i) => sum + Math.abs(v - (i < k ? before : before + slope * (x[i] - origin))), 0);
    if (hingeCost < hinge.cost) hinge = { at: k - 1, slope, flat: before, cost: hingeCost };
  }
  const residualsOf = (fit: (i: number) => number) => envelope.map((v, i) => v - fit(i));
  const stepBefore = median(envelope.slice(0, step.at));
  const stepAfter = median(envelope.slice(step.at));
  const origin = x[hinge.at];
  // Levels right around the step, so that a slow drift of the model elsewhere does not blur the ratio.
  const near = HALF_ENVELOPE + 1;
  return {
    hingeAt: hinge.at,
    rate: hinge.slope / level,
    decline: (-hinge.slope * (x[n - 1] - origin)) / level,
    lineSpread: spreadOf(residualsOf((i) => (i <= hinge.at ? hinge.flat : hinge.flat + hinge.slope * (x[i] - origin))), level),
    stepAt: step.at,
    before: median(envelope.slice(Math.max(0, step.at - near), step.at)),
    after: median(envelope.slice(step.at, step.at + near)),
    stepSpread: spreadOf(residualsOf((i) => (i < step.at ? stepBefore : stepAfter)), level),
    level,
  };
}

/** Most strings per inverter input considered when the drop is read as a fraction of strings lost. */
const MAX_STRINGS = 6;

/** The nearest fraction k / n, n up to MAX_STRINGS (the share of strings still working). */
function nearestFraction(share: number): { working: number; strings: number } {
  let best = { working: 1, strings: 1, error: Infinity };
  for (let n = 2; n <= MAX_STRINGS; n++) {
    for (let k = 1; k < n; k++) {
      const error = Math.abs(share - k / n);
      if (error < best.error - 1e-9) best = { working: k, strings: n, error };
    }
  }
  return best;
}

const hoursOf = (a: Anomaly, stepMinutes: number) => (a.steps * stepMinutes) / 60;

function tripCandidate(zeros: Anomaly[], capacityKw: number, stepMinutes: number, format: ReturnType<typeof timeFormat>, daylight: readonly DaylightDay[]): Candidate | null {
  if (zeros.length === 0) return null;
  let strength = 0;
  let hours = 0;
  let energy = 0;
  for (const a of zeros) {
    const h = hoursOf(a, stepMinutes);
    hours += h;
    energy += a.energyAtRiskKwh;
    // Weighed against the day's own clear-sky peak where detection gives it: a winter noon is a full-weight hour.
    const reference = Math.min(capacityKw, Number(a.evidence.day_clear_sky_peak_kw) || capacityKw);
    strength += h * Math.min(1, Number(a.evidence.expected_mean_kw) / (TRIP_FULL_EXPECTED_SHARE * reference));
  }
  const worst = [...zeros].sort((a, b) => b.energyAtRiskKwh - a.energyAtRiskKwh)[0];
  const others = zeros.length > 1 ? ` ${zeros.length - 1} more outage${zeros.length > 2 ? 's' : ''}, ${hours.toFixed(1)} h in all, ${energy.toFixed(1)} kWh lost.` : ` ${energy.toFixed(1)} kWh lost.`;
  const sameDay = format.date(worst.start) === format.date(worst.end);
  const when = sameDay
    ? `from ${format.clock(worst.start)} to ${format.clock(worst.end)} ${format.zone} on ${format.date(worst.start)}`
    : `from ${format.date(worst.start)} ${format.clock(worst.start)} to ${format.date(worst.end)} ${format.clock(worst.end)} ${format.zone}`;
  return {
    family: 'inverter_trip',
    confidence: saturate(strength, TRIP_HOURS_SCALE),
    // Not addressed, a tripped inverter stays off: the day's whole output is at risk.
    energyAtRiskKw: daylightAround(daylight, worst.start, worst.end).meanKw,
    members: zeros,
    severity: 'critical',
    rootCause: `Inverter trip: output ${kw(Math.max(0, Number(worst.evidence.measured_mean_kw)))} ${when} while ${kw(Number(worst.evidence.expected_mean_kw))} was expected.${others}`,
    evidence: { outages: zeros.length, zero_output_hours: roundHalfUp(hours, 2, 0), energy_lost_kwh: roundHalfUp(energy, 2, 0), longest_outage_start: new Date(worst.start).toISOString(), expected_during_kw: Number(worst.evidence.expected_mean_kw) },
    actions: [
      `Read the inverter's event log for ${format.date(worst.start)} ${format.clock(worst.start)} ${format.zone} (grid fault, insulation or overtemperature trip) and reset or repair it`,
      'Check the AC isolator, the grid protection relay settings and the DC insulation resistance',
    ],
  };
}

function sensorCandidate(anomalies: Anomaly[], stepMinutes: number, format: ReturnType<typeof timeFormat>): Candidate | null {
  const kinds: AnomalyKind[] = ['flatline', 'straight_line', 'spike', 'impossible_value'];
  const found = anomalies.filter((a) => kinds.includes(a.kind));
  if (found.length === 0) return null;
  let strength = 0;
  const count: Record<string, number> = {};
  for (const a of found) {
    count[a.kind] = (count[a.kind] ?? 0) + 1;
    const litHours = (Number(a.evidence.daylight_steps) * stepMinutes) / 60;
    if (a.kind === 'flatline') strength += litHours;
    else if (a.kind === 'straight_line') strength += litHours > 0 ? litHours : NIGHT_LINE_WEIGHT;
    else if (a.kind === 'spike') strength += SPIKE_WEIGHT;
    else strength += IMPOSSIBLE_WEIGHT;
  }
  const order = (a: Anomaly) => (a.kind === 'flatline' || a.kind === 'straight_line' ? Number(a.evidence.daylight_steps) : 0) + (a.kind === 'impossible_value' ? 0.5 : 0);
  const lead = [...found].sort((a, b) => order(b) - order(a))[0];
  const at = `${format.date(lead.start)} ${format.clock(lead.start)}`;
  const detail =
    lead.kind === 'flatline'
      ? `the reading stuck at ${kw(Number(lead.evidence.value_kw))} from ${at} to ${format.clock(lead.end)} ${format.zone} while the expected output moved between ${kw(Number(lead.evidence.expected_min_kw))} and ${kw(Number(lead.evidence.expected_max_kw))}`
      : lead.kind === 'straight_line'
        ? `the logger filled ${lead.steps} steps from ${at} ${format.zone} with a straight line (${kw(Number(lead.evidence.from_kw))} to ${kw(Number(lead.evidence.to_kw))})`
        : lead.kind === 'impossible_value'
          ? `a reading of ${kw(Number(lead.evidence.value_kw))} at ${at} ${format.zone}, beyond the physical limit of ${kw(Number(lead.evidence.limit_kw))}`
          : `an isolated reading of ${kw(Number(lead.evidence.value_kw))} at ${at} ${format.zone}, ${kw(Math.abs(Number(lead.evidence.deviation_from_median_kw)))} away from its neighbours`;
  const tally = Object.entries(count)
    .map(([k, n]) => `${n} ${k.replace('_', ' ')}${n > 1 ? 's' : ''}`)
    .join(', ');
  return {
    family: 'sensor_fault',
    confidence: saturate(strength, 1),
    energyAtRiskKw: 0,
    members: found,
    severity: 'warning',
    rootCause: `Sensor or logger fault: ${detail} (${tally}). The data, not the output, is at fault, so no energy is counted as lost.`,
    evidence: { ...count, sensor_evidence: roundHalfUp(strength, 2, 0) },
    actions: ['Check the meter and the logger: wiring, communication and the register the value is read from; replace a stuck meter', 'Turn off gap filling by interpolation in the logger so that missing data stays missing'],
  };
}

function capCandidate(clips: Anomaly[], capacityKw: number, stepMinutes: number, format: ReturnType<typeof timeFormat>, daylight: readonly DaylightDay[]): Candidate | null {
  if (clips.length === 0) return null;
  let strength = 0;
  let hours = 0;
  let energy = 0;
  for (const a of clips) {
    const h = hoursOf(a, stepMinutes);
    hours += h;
    energy += a.energyAtRiskKwh;
    strength += h * Math.min(1, Math.max(0, Number(a.evidence.potential_max_kw) - Number(a.evidence.level_kw)) / (CAP_GAP_SCALE_SHARE * capacityKw));
  }
  const level = median(clips.map((a) => Number(a.evidence.level_kw)));
  const potential = Math.max(...clips.map((a) => Number(a.evidence.potential_max_kw)));
  const days = new Set(clips.map((a) => format.date(a.start))).size;
  const share = level / capacityKw;
  const first = clips[0];
  const span = `${format.clock(first.start)}-${format.clock(first.end)} ${format.zone} on ${format.date(first.start)}${days > 1 ? ` and on ${days - 1} other day${days > 2 ? 's' : ''}` : ''}`;
  const evidence = { level_kw: roundHalfUp(level, 3, 0), level_share_of_rating: roundHalfUp(share, 3, 0), flat_hours: roundHalfUp(hours, 2, 0), days, energy_lost_kwh: roundHalfUp(energy, 2, 0), potential_max_kw: roundHalfUp(potential, 3, 0) };
  if (share >= CLIPPING_AT_RATING_SHARE) {
    return {
      family: 'none',
      confidence: saturate(strength, CAP_HOURS_SCALE),
      energyAtRiskKw: 0,
      members: clips,
      severity: 'normal',
      rootCause: `No fault: the output clips at ${kw(level)} (${pct(share)} of the ${kw(capacityKw)} rating) for ${hours.toFixed(1)} h (${span}) while the array could give up to ${kw(potential)}; this is the inverter's limit, a design choice.`,
      evidence,
      actions: ['No action needed; review the DC/AC ratio if clipping losses grow'],
    };
  }
  const around = daylightAround(daylight, clips[0].start, clips[clips.length - 1].end);
  return {
    family: 'curtailment',
    confidence: saturate(strength, CAP_HOURS_SCALE),
    energyAtRiskKw: energy / days / around.hours,
    members: clips,
    severity: 'warning',
    rootCause: `Curtailment: the output held flat at ${kw(level)} (${pct(share)} of the ${kw(capacityKw)} rating) for ${hours.toFixed(1)} h (${span}) while up to ${kw(potential)} was available (${energy.toFixed(1)} kWh lost).`,
    evidence,
    actions: [`Check the inverter's active-power limit and export-limit settings (held at ${kw(level)})`, "Confirm with the grid operator whether curtailment instructions were issued, and claim compensation where it applies"],
  };
}

/** Minutes after midnight in the time zone used for reports. */
function minuteOfDay(t: number, format: ReturnType<typeof timeFormat>): number {
  const [h, m] = format.clock(t).split(':').map(Number);
  return h * 60 + m;
}

function shadingCandidate(dips: Anomaly[], stepMinutes: number, format: ReturnType<typeof timeFormat>, daylight: readonly DaylightDay[]): Candidate | null {
  // Slots of the day (UTC: a shadow keeps to solar time, which UTC follows without daylight-saving jumps).
  const slot = (t: number) => Math.floor((((t % DAY_MS) + DAY_MS) % DAY_MS) / (stepMinutes * 60_000));
  const slots = Math.round(1440 / stepMinutes);
  const daysBySlot: Set<number>[] = Array.from({ length: slots }, () => new Set());
  for (const a of dips) for (let t = a.start; t <= a.end; t += stepMinutes * 60_000) daysBySlot[slot(t)].add(Math.floor(t / DAY_MS));
  const counts = daysBySlot.map((s) => s.size);
  const peak = counts.indexOf(Math.max(...counts));
  if (counts[peak] < SHADING_MIN_DAYS) return null;
  // The window: neighbouring slots where at least half as many days dip.
  let from = peak;
  let to = peak;
  while (counts[(from - 1 + slots) % slots] >= counts[peak] / 2 && (from - 1 + slots) % slots !== to) from = (from - 1 + slots) % slots;
  while (counts[(to + 1) % slots] >= counts[peak] / 2 && (to + 1) % slots !== from) to = (to + 1) % slots;
  const inWindow = (t: number) => {
    const s = slot(t);
    return from <= to ? s >= from && s <= to : s >= from || s <= to;
  };
  const members = dips.filter((a) => inWindow(a.start) || inWindow(a.end));
  const days = new Set(members.map((a) => Math.floor(a.start / DAY_MS)));
  const dayList = [...days].sort((a, b) => a - b);
  const spanDays = dayList[dayList.length - 1] - dayList[0] + 1;
  const recurrence = days.size / spanDays;
  const energy = members.reduce((sum, a) => sum + a.energyAtRiskKwh, 0);
  const ratio = median(members.map((a) => Number(a.evidence.ratio_median)));
  const first = members[0];
  const last = members[members.length - 1];
  const windowStart = Math.round(median(members.map((a) => minuteOfDay(a.start, format))) / stepMinutes) * stepMinutes;
  const windowEnd = Math.round(median(members.map((a) => minuteOfDay(a.end + stepMinutes * 60_000, format))) / stepMinutes) * stepMinutes;
  const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return {
    family: 'shading',
    confidence: saturate(days.size, SHADING_DAYS_SCALE) * recurrence,
    loss: { spans: members.map((a) => [a.start, a.end]), share: 1 - ratio },
    energyAtRiskKw: energy / days.size / daylightAround(daylight, first.start, last.end).hours,
    members,
    severity: 'warning',
    rootCause: `Shading: output at ${pct(ratio)} of expected between ${hhmm(windowStart)} and ${hhmm(windowEnd)} ${format.zone} on ${days.size} of ${spanDays} days (${format.date(first.start)} to ${format.date(last.start)}); a dip that returns at the same time of day is an obstruction's shadow (${energy.toFixed(1)} kWh lost).`,
    evidence: { window_start: hhmm(windowStart), window_end: hhmm(windowEnd), days_with_dip: days.size, span_days: spanDays, recurrence: roundHalfUp(recurrence, 3, 0), ratio_median: roundHalfUp(ratio, 3, 0), energy_lost_kwh: roundHalfUp(energy, 2, 0) },
    actions: [`Survey the horizon in the direction of the sun between ${hhmm(windowStart)} and ${hhmm(windowEnd)} for a new obstruction (vegetation, a building, a mast) and trim or remove it`, 'Check module-level power electronics or bypass diodes on the shaded strings'],
  };
}

/** String fault, soiling or degradation, from the daily ratios around the long underperformance. */
function levelCandidates(long: Anomaly[], daily: DailyRatio[], format: ReturnType<typeof timeFormat>, daylight: readonly DaylightDay[]): Candidate[] {
  if (long.length === 0 || daily.length === 0) return [];
  const start = Math.min(...long.map((a) => a.start));
  const end = Math.max(...long.map((a) => a.end));
  const window = daily.filter((d) => d.noon >= start - REFERENCE_DAYS * DAY_MS && d.noon <= end + DAY_MS);
  const envelope = envelopeOf(window);
  const change = levelChange(window, envelope);
  if (!change) return [];
  const lostKw = (share: number) => Math.max(0, share) * daylightAround(daylight, start, end).meanKw;
  const candidates: Candidate[] = [];
  const flaggedDays = Math.max(1, (end - start) / DAY_MS);
  const dateOf = (day: number) => format.date(day * DAY_MS + DAY_MS / 2);

  // A step: better fitted by two levels than by a line, and a drop large enough.
  const drop = 1 - change.after / change.before;
  if (drop >= STRING_MIN_DROP && change.stepSpread < change.lineSpread) {
    const z = drop / change.stepSpread;
    const daysAfter = window.length - change.stepAt + HALF_ENVELOPE;
    const { working, strings } = nearestFraction(1 - drop);
    // The envelope (a centred maximum) shows a drop HALF_ENVELOPE days late.
    const stepDay = window[change.stepAt].day - HALF_ENVELOPE;
    candidates.push({
      family: 'string_fault',
      confidence: saturate(daysAfter, STEP_DAYS_SCALE) * saturate(z, Z_SCALE),
      loss: { spans: long.map((a) => [a.start, a.end]), share: drop },
      energyAtRiskKw: lostKw(drop),
      members: long,
      severity: drop >= 0.25 ? 'critical' : 'warning',
      rootCause: `String fault: on ${dateOf(stepDay)} the output dropped to ${pct(1 - drop)} of its earlier level at all hours of the day (roughly ${working}/${strings}, as if ${strings - working} of ${strings} strings stopped) and stayed there for ${daysAfter} days; a step, not a drift (day-to-day spread ${pct(change.stepSpread)}).`,
      evidence: { step_date: dateOf(stepDay), level_before: roundHalfUp(change.before, 3, 0), level_after: roundHalfUp(change.after, 3, 0), drop_share: roundHalfUp(drop, 3, 0), days_after: daysAfter, strings_working: `${working}/${strings}`, spread: roundHalfUp(change.stepSpread, 3, 0) },
      actions: ['Measure the string currents and voltages (or trace I-V curves) to find the failed string; check its fuses, connectors and DC isolator', 'Inspect the inverter input (MPPT) the string feeds for a fault message'],
    });
  }

  // A decline: a hinge fitted at least as well as a step, and losing enough.
  if (change.rate < 0 && change.decline >= TREND_MIN_DECLINE && change.lineSpread <= change.stepSpread) {
    const z = change.decline / change.lineSpread;
    // The envelope (a centred maximum) shows a decline HALF_ENVELOPE days late.
    const firstDay = window[change.hingeAt].day - HALF_ENVELOPE;
    const lastDay = window[window.length - 1].day;
    const fast = -change.rate >= SOILING_MIN_RATE_PER_DAY;
    const family: FaultFamily = fast || lastDay - firstDay < DEGRADATION_MIN_DAYS ? 'soiling' : 'degradation';
    // Recovery after the decline (rain or cleaning) is the other half of soiling's signature: back above half the loss.
    const after = daily.filter((d) => d.noon > end && d.noon <= end + ENVELOPE_DAYS * DAY_MS).map((d) => d.ratio);
    const recovered = after.length > 0 && Math.max(...after) >= change.level * (1 - change.decline / 2);
    const lossNow = change.decline;
    candidates.push({
      family,
      confidence: saturate(z, Z_SCALE) * saturate(flaggedDays, TREND_DAYS_SCALE),
      loss: { spans: long.map((a) => [a.start, a.end]), share: lossNow },
      energyAtRiskKw: lostKw(lossNow),
      members: long,
      severity: lossNow >= 0.25 ? 'critical' : 'warning',
      rootCause:
        family === 'soiling'
          ? `Soiling: the clear-day performance ratio fell steadily by ${(100 * -change.rate).toFixed(2)}%/day from ${dateOf(firstDay)} to ${dateOf(lastDay)}, ${pct(lossNow)} in all, a drift rather than a step${recovered ? ', and came back afterwards (rain or cleaning)' : ''}.`
          : `Degradation: the clear-day performance ratio declined by ${(100 * -change.rate * 365).toFixed(1)}%/year from ${dateOf(firstDay)} to ${dateOf(lastDay)}, ${pct(lossNow)} in all.`,
      evidence: { rate_per_day: roundHalfUp(change.rate, 5, 0), decline_share: roundHalfUp(lossNow, 3, 0), first_day: dateOf(firstDay), last_day: dateOf(lastDay), spread: roundHalfUp(change.lineSpread, 3, 0), recovered: recovered ? 'yes' : 'no' },
      actions:
        family === 'soiling'
          ? [`Clean the modules (about ${pct(lossNow)} of output lost and growing)`, 'Look for the source of dirt (dust, pollen, bird droppings) and plan cleaning when the loss outweighs its cost']
          : ['Trace I-V curves and take infrared images to find degraded modules', 'Compare the rate with the module warranty (typically 0.5-0.8%/year)'],
    });
  }
  return candidates;
}

/**
 * Heat takes part of the blame for a loss when it was warmer while the loss acted than at other daylight steps:
 * crystalline silicon loses TEMPERATURE_COEFFICIENT of its power per degree. The share of the loss heat explains
 * lowers the confidence by as much, and is cited. Nothing changes without temperatures.
 */
function weighHeat(candidate: Candidate, series: OutputSeries, expectedKw: readonly number[]): void {
  const temperature = series.temperatureC;
  if (!candidate.loss || !temperature || temperature.length !== series.t.length) return;
  const { spans, share } = candidate.loss;
  let [during, duringCount, other, otherCount] = [0, 0, 0, 0];
  for (let i = 0; i < series.t.length; i++) {
    if (!(expectedKw[i] > 0) || !Number.isFinite(temperature[i])) continue;
    if (spans.some(([start, end]) => series.t[i] >= start && series.t[i] <= end)) [during, duringCount] = [during + temperature[i], duringCount + 1];
    else [other, otherCount] = [other + temperature[i], otherCount + 1];
  }
  if (duringCount === 0 || otherCount === 0) return;
  const warmer = during / duringCount - other / otherCount;
  candidate.evidence.temperature_during_c = roundHalfUp(during / duringCount, 1, 0);
  candidate.evidence.temperature_elsewhere_c = roundHalfUp(other / otherCount, 1, 0);
  if (!(warmer > 0) || !(share > 0)) return;
  const explained = Math.min(1, (TEMPERATURE_COEFFICIENT * warmer) / share);
  candidate.confidence *= 1 - explained;
  if (explained >= 0.1) candidate.rootCause += ` It was ${warmer.toFixed(0)} degrees C warmer then than at other times: heat may explain ${pct(explained)} of the loss.`;
}

/** Energy of a set of anomalies, kWh, each counted once. */
const lostOf = (anomalies: Iterable<Anomaly>) => [...new Set(anomalies)].reduce((sum, a) => sum + a.energyAtRiskKwh, 0);

/**
 * What the diagnosed faults put at risk together. Each fault's rate is a share of the expected daylight output
 * around the anomalies it explains; shares combine on what the others leave, 1 - product of (1 - share), so a
 * trip (all of the output) is not added to a soiling loss of the same hours. The total is that share of the
 * largest of those outputs: one fault's total is its own rate. Energy lost counts each anomaly once (a step
 * carries one anomaly, so anomalies never overlap in time), whichever families cite it.
 */
function combinedRisk(diagnosed: readonly Candidate[], daylight: readonly DaylightDay[]): { energyAtRiskKw: number; energyLostKwh: number } {
  let kept = 1;
  let reference = 0;
  for (const c of diagnosed) {
    if (!(c.energyAtRiskKw > 0) || c.members.length === 0) continue;
    const around = daylightAround(daylight, Math.min(...c.members.map((a) => a.start)), Math.max(...c.members.map((a) => a.end))).meanKw;
    if (!(around > 0)) continue;
    kept *= 1 - Math.min(1, c.energyAtRiskKw / around);
    reference = Math.max(reference, around);
  }
  return { energyAtRiskKw: (1 - kept) * reference, energyLostKwh: lostOf(diagnosed.flatMap((c) => c.members)) };
}

const NOTHING = (reason: string): Diagnosis => ({ faultFamily: 'none', confidence: 0, severityLabel: 'normal', rootCause: `Nothing to diagnose: ${reason}`, energyAtRiskKw: 0, energyLostKwh: 0, faults: [], recommendedActions: [], evidence: {} });

/**
 * The fault family behind a detection's anomalies (module comment for the rules and confidences).
 * @param expectedKw the detection's expected output, aligned with `series.t`
 */
export function diagnose(anomalies: readonly Anomaly[], series: OutputSeries, asset: AssetSpec, expectedKw: readonly number[]): Diagnosis {
  if (anomalies.length === 0) return NOTHING('no anomaly was detected.');
  const format = timeFormat(asset.timezone);
  const capacityKw = asset.capacityKw > 0 ? asset.capacityKw : series.powerKw.reduce((max, p) => (p > max ? p : max), 0);
  const stepMinutes = series.stepMinutes;
  const byKind = (kind: AnomalyKind) => anomalies.filter((a) => a.kind === kind);
  const under = byKind('underperformance');
  const dips = under.filter((a) => a.end - a.start < SHADING_MAX_HOURS * HOUR_MS);
  const long = under.filter((a) => a.end - a.start >= SHADING_MAX_HOURS * HOUR_MS);
  const noonMs = solarNoonMs(series, expectedKw);
  const daily = dailyRatios(series, expectedKw, capacityKw, anomalies.filter((a) => a.kind !== 'underperformance'), noonMs);
  const daylight = daylightDays(series, expectedKw, noonMs);

  const scored = [
    tripCandidate(byKind('zero_output'), capacityKw, stepMinutes, format, daylight),
    sensorCandidate([...anomalies], stepMinutes, format),
    capCandidate(byKind('clipping'), capacityKw, stepMinutes, format, daylight),
    dips.length ? shadingCandidate(dips, stepMinutes, format, daylight) : null,
    ...levelCandidates(long, daily, format, daylight),
  ].filter((c): c is Candidate => c !== null);
  for (const c of scored) weighHeat(c, series, expectedKw);
  const candidates = scored.filter((c) => c.confidence > 0);
  if (candidates.length === 0) return NOTHING(`${anomalies.length} anomalies, none with the signature of a fault family.`);

  candidates.sort((a, b) => b.confidence - a.confidence || b.energyAtRiskKw - a.energyAtRiskKw);
  const primary = candidates[0];
  // Actions by the energy they save, weighed by how sure each family is.
  const stake = (c: Candidate) => c.confidence * c.energyAtRiskKw;
  const ranked = candidates.filter((c) => c === primary || c.confidence >= MIN_ACTION_CONFIDENCE).sort((a, b) => stake(b) - stake(a) || b.confidence - a.confidence);
  const priorityOf = (c: Candidate): 'high' | 'medium' | 'low' => {
    if (c.family === 'none') return 'low';
    if (c.severity === 'critical' || stake(c) >= HIGH_PRIORITY_SHARE * capacityKw) return 'high';
    return stake(c) >= MEDIUM_PRIORITY_SHARE * capacityKw || c === primary ? 'medium' : 'low';
  };
  const lower = { high: 'medium', medium: 'low', low: 'low' } as const;
  const recommendedActions = ranked.flatMap((c) => c.actions.map((action, k) => ({ priority: k === 0 ? priorityOf(c) : lower[priorityOf(c)], action })));
  const diagnosed = candidates.filter((c) => c.family !== 'none' && (c === primary || c.confidence >= MIN_ACTION_CONFIDENCE));
  const total = combinedRisk(diagnosed, daylight);
  // A critical fault is never hidden behind a more certain, milder one (a stuck meter beside a trip).
  const worst = diagnosed.some((c) => c.severity === 'critical') ? 'critical' : primary.severity;
  return {
    faultFamily: primary.family,
    confidence: roundHalfUp(primary.confidence, 3, 0),
    severityLabel: worst,
    rootCause: primary.rootCause + (diagnosed.length > 1 && total.energyAtRiskKw > primary.energyAtRiskKw ? ` With ${diagnosed.filter((c) => c !== primary).map((c) => c.family.replace('_', ' ')).join(', ')} also diagnosed, ${kw(total.energyAtRiskKw)} of output is at risk in all.` : ''),
    energyAtRiskKw: roundHalfUp(total.energyAtRiskKw, 3, 0),
    energyLostKwh: roundHalfUp(total.energyLostKwh, 2, 0),
    faults: diagnosed.map((c) => ({ family: c.family, confidence: roundHalfUp(c.confidence, 3, 0), energyAtRiskKw: roundHalfUp(c.energyAtRiskKw, 3, 0), energyLostKwh: roundHalfUp(lostOf(c.members), 2, 0) })),
    recommendedActions,
    evidence: {
      ...primary.evidence,
      anomalies: anomalies.length,
      candidates: candidates.map((c) => `${c.family} ${roundHalfUp(c.confidence, 2, 0)}`).join(', '),
    },
  };
}
