/**
 * Observe and Orient of the maintenance loop (ARCHITECTURE 5, flow 3): detection on an asset's recent
 * data against its expected output, diagnosis of what was found, and the OODA summary. Runs on request
 * (/terminal/detect, /terminal/diagnose) and after each nowcast for a site with assets (the detection worker).
 */
import { randomUUID } from 'node:crypto';
import { ForecastInputError, regularise } from '../../domain/forecasting/regularise';
import { detectAnomalies, type Anomaly, type DetectionResult, type OutputSeries } from '../../domain/operations/detection';
import { diagnose, type Diagnosis } from '../../domain/operations/diagnosis';
import { NotFound } from '../../errors';
import { log } from '../../logger';
import { operationsCollection } from '../../store/operations-repo';
import type { DomainEvent } from '../../events/event-bus';
import { listAssetsOfSite, type AssetRecord } from '../../store/assets-repo';
import { getSite, type SiteRecord } from '../../store/sites-repo';
import { readSiteSeries, readSiteWeather } from '../uploads/site-data';
import { roundHalfUp } from '../../domain/rounding';
import { DAY_MS, HOUR_MS, iso } from '../../domain/time';

/** Days of the latest data a detection looks at. */
export const DETECTION_WINDOW_DAYS = 30;
/** Anomalies kept on a detection record (the count is always complete). */
const STORED_ANOMALIES = 100;
/** Version of the detection and diagnosis rules, reported as the OODA summary's model_version. */
export const OODA_MODEL_VERSION = 'ooda-rules-1';

export interface StoredAnomaly {
  kind: Anomaly['kind'];
  start: string;
  end: string;
  steps: number;
  severity: Anomaly['severity'];
  energy_at_risk_kwh: number;
  evidence: Anomaly['evidence'];
}

export interface DetectionRecord {
  detection_id: string;
  account_id: string;
  asset_id: string;
  customer_id?: string;
  site_id?: string;
  detected_at: string;
  trigger: 'request' | 'nowcast';
  status: 'completed';
  anomalies_detected: number;
  severity: 'critical' | 'warning' | 'info' | 'normal';
  message: string;
  window?: { start: string; end: string };
  anomalies: StoredAnomaly[];
}

export interface DiagnosticRecord {
  diagnostic_id: string;
  account_id: string;
  asset_id: string;
  diagnosed_at: string;
  detection_id: string;
  status: 'completed';
  fault_family: Diagnosis['faultFamily'];
  root_cause: string;
  confidence: number;
  severity: Diagnosis['severityLabel'];
  energy_at_risk_kw: number;
  /** Energy the diagnosed faults cost over the data, kWh (each anomaly once). */
  energy_lost_kwh?: number;
  /** Every diagnosed fault: the energy at risk above combines theirs without counting the same hours twice. */
  faults?: { family: Diagnosis['faultFamily']; confidence: number; energy_at_risk_kw: number; energy_lost_kwh: number }[];
  recommended_actions: Diagnosis['recommendedActions'];
}

export interface OodaSummaryRecord {
  summary_id: string;
  account_id: string;
  asset_id: string;
  customer_id?: string;
  created_at: string;
  last_detection_at: string;
  model_version: string;
  fault_family: string;
  severity_label: string;
  confidence: number;
  energy_at_risk_kw: number;
  root_cause: string;
  recommended_actions: { priority: 'high' | 'medium' | 'low'; action: string }[];
  detections: string[];
}

export const detections = operationsCollection<DetectionRecord>('DETECTION', (r) => `${r.detected_at}#${r.detection_id}`, 'detected_at');
export const diagnostics = operationsCollection<DiagnosticRecord>('DIAGNOSTIC', (r) => `${r.diagnosed_at}#${r.diagnostic_id}`, 'diagnosed_at');
export const oodaSummaries = operationsCollection<OodaSummaryRecord>('OODA', (r) => `${r.created_at}#${r.summary_id}`, 'created_at');

const SEVERITY_ORDER = ['critical', 'warning', 'info'] as const;

/** What an observation saw: the stored record, and the series and expectation diagnosis reads. */
export interface Observation {
  record: DetectionRecord;
  series?: OutputSeries;
  result?: DetectionResult;
}

/** The asset's latest data as the detector takes it; a reason instead when there is none. */
async function assetData(asset: AssetRecord): Promise<{ series: OutputSeries; site: SiteRecord } | { reason: string }> {
  if (!asset.customer_id || !asset.site_id) return { reason: `Asset ${asset.asset_id} is linked to no site: add it with customer_id and site_id so detection can read the site's uploaded data` };
  const site = await getSite(asset.customer_id, asset.site_id);
  if (!site?.coverage?.last) return { reason: `Site ${asset.site_id} of customer ${asset.customer_id} has no uploaded data yet` };
  const since = Date.parse(site.coverage.last) - DETECTION_WINDOW_DAYS * DAY_MS;
  const rows = (await readSiteSeries(asset.customer_id, asset.site_id, since)).filter((r) => r.power_kw !== null);
  let regular;
  try {
    regular = regularise(rows.map((r) => ({ t: r.t, value: r.power_kw as number })));
  } catch (err) {
    if (err instanceof ForecastInputError) return { reason: `The site's recent data cannot be checked: ${err.message}` };
    throw err;
  }
  const weather = await readSiteWeather(asset.customer_id, asset.site_id, since);
  // The stored weather is hourly and, offline, modelled rather than observed: its temperature helps the
  // diagnosis, but expected output comes from clear sky and capacity, not from modelled irradiance.
  const temperature = new Map(weather.map((w) => [Math.floor(Date.parse(w.timestamp) / HOUR_MS), w.temperature_c]));
  return {
    site,
    series: {
      t: regular.t,
      powerKw: regular.y,
      stepMinutes: regular.stepMinutes,
      ...(weather.length ? { temperatureC: regular.t.map((t) => temperature.get(Math.floor(t / HOUR_MS)) ?? NaN) } : {}),
    },
  };
}

/** Observe: detection on the asset's latest data, stored. */
export async function observe(accountId: string, asset: AssetRecord, trigger: DetectionRecord['trigger']): Promise<Observation> {
  const detectedAt = new Date().toISOString();
  const base = { detection_id: `det_${randomUUID()}`, account_id: accountId, asset_id: asset.asset_id, customer_id: asset.customer_id, site_id: asset.site_id, detected_at: detectedAt, trigger, status: 'completed' as const };
  const data = await assetData(asset);
  if ('reason' in data) {
    const record: DetectionRecord = { ...base, anomalies_detected: 0, severity: 'normal', message: `No anomalies: ${data.reason}`, anomalies: [] };
    await detections.insert(record);
    return { record };
  }
  const result = detectAnomalies(data.series, { capacityKw: asset.capacity_kw, latitude: data.site.latitude, longitude: data.site.longitude, timezone: data.site.timezone });
  const worst = SEVERITY_ORDER.find((s) => result.anomalies.some((a) => a.severity === s)) ?? 'normal';
  const record: DetectionRecord = {
    ...base,
    anomalies_detected: result.anomalies.length,
    severity: worst,
    message: result.anomalies.length
      ? `${result.anomalies.length} anomalies in ${roundHalfUp(result.checkedSteps * data.series.stepMinutes / 60, 1, 0)} hours of data: ${summariseKinds(result.anomalies)}`
      : `No anomalies: ${result.message}`,
    window: { start: iso(data.series.t[0]), end: iso(data.series.t[data.series.t.length - 1]) },
    anomalies: [...result.anomalies]
      .sort((a, b) => b.energyAtRiskKwh - a.energyAtRiskKwh)
      .slice(0, STORED_ANOMALIES)
      .map((a) => ({ kind: a.kind, start: iso(a.start), end: iso(a.end), steps: a.steps, severity: a.severity, energy_at_risk_kwh: roundHalfUp(a.energyAtRiskKwh, 3, 0), evidence: a.evidence })),
  };
  await detections.insert(record);
  return { record, series: data.series, result };
}

function summariseKinds(anomalies: readonly Anomaly[]): string {
  const counts = new Map<string, number>();
  for (const a of anomalies) counts.set(a.kind, (counts.get(a.kind) ?? 0) + 1);
  return [...counts].map(([kind, n]) => `${n} ${kind}`).join(', ');
}

/** Orient: diagnosis of an observation, stored with the OODA summary it produces. */
export async function orient(accountId: string, asset: AssetRecord, observation: Observation): Promise<DiagnosticRecord> {
  const diagnosedAt = new Date().toISOString();
  const diagnosis: Diagnosis =
    observation.series && observation.result
      ? diagnose(observation.result.anomalies, observation.series, { capacityKw: asset.capacity_kw }, observation.result.expectedKw)
      : { faultFamily: 'none', confidence: 0, severityLabel: 'normal', rootCause: `Nothing to diagnose: ${observation.record.message}`, energyAtRiskKw: 0, energyLostKwh: 0, faults: [], recommendedActions: [], evidence: {} };
  const record: DiagnosticRecord = {
    diagnostic_id: `diag_${randomUUID()}`,
    account_id: accountId,
    asset_id: asset.asset_id,
    diagnosed_at: diagnosedAt,
    detection_id: observation.record.detection_id,
    status: 'completed',
    fault_family: diagnosis.faultFamily,
    root_cause: diagnosis.rootCause,
    confidence: roundHalfUp(diagnosis.confidence, 4, 0),
    severity: diagnosis.severityLabel,
    energy_at_risk_kw: roundHalfUp(diagnosis.energyAtRiskKw, 3, 0),
    energy_lost_kwh: roundHalfUp(diagnosis.energyLostKwh, 2, 0),
    faults: diagnosis.faults.map((f) => ({ family: f.family, confidence: f.confidence, energy_at_risk_kw: f.energyAtRiskKw, energy_lost_kwh: f.energyLostKwh })),
    recommended_actions: diagnosis.recommendedActions,
  };
  await diagnostics.insert(record);
  const recent = await detections.list(accountId, (d) => d.asset_id === asset.asset_id && d.anomalies_detected > 0 && Date.parse(d.detected_at) > Date.now() - 7 * DAY_MS);
  await oodaSummaries.insert({
    summary_id: `ooda_${randomUUID()}`,
    account_id: accountId,
    asset_id: asset.asset_id,
    customer_id: asset.customer_id,
    created_at: diagnosedAt,
    last_detection_at: observation.record.detected_at,
    model_version: OODA_MODEL_VERSION,
    fault_family: diagnosis.faultFamily,
    severity_label: diagnosis.severityLabel,
    confidence: record.confidence,
    energy_at_risk_kw: record.energy_at_risk_kw,
    root_cause: diagnosis.rootCause,
    recommended_actions: diagnosis.recommendedActions,
    detections: [...new Set([observation.record.detection_id, ...recent.map((d) => d.detection_id)])],
  });
  return record;
}

/** After a nowcast (the `detection.requested` event): detection on each of the site's assets, and diagnosis where anomalies were found. */
export async function detectOnNowcast(event: DomainEvent<{ customer_id: string; site_id: string }>): Promise<void> {
  const accountId = event.account_id;
  for (const asset of await listAssetsOfSite(accountId, event.data.customer_id, event.data.site_id)) {
    const observation = await observe(accountId, asset, 'nowcast');
    if (observation.record.anomalies_detected > 0) await orient(accountId, asset, observation);
    log.info('automatic detection', { asset_id: asset.asset_id, anomalies: observation.record.anomalies_detected });
  }
}

// The endpoints' side: /terminal/detect, /terminal/diagnose, /terminal/ooda.

const publicRecord = <T extends { account_id: string }>({ account_id: _a, ...rest }: T) => rest;

/** POST /terminal/detect, action run. */
export async function runDetection(accountId: string, asset: AssetRecord) {
  const { record } = await observe(accountId, asset, 'request');
  return { success: true, message: record.message, detection_id: record.detection_id, asset_id: asset.asset_id, anomalies_detected: record.anomalies_detected, status: record.status, severity: record.severity, anomalies: record.anomalies };
}

/** POST /terminal/diagnose, action run: a fresh observation, then its diagnosis. */
export async function runDiagnosis(accountId: string, asset: AssetRecord) {
  const record = await orient(accountId, asset, await observe(accountId, asset, 'request'));
  return {
    success: true,
    message: record.fault_family === 'none' ? 'Diagnosis completed: nothing to diagnose' : `Diagnosis completed: ${record.fault_family.replace('_', ' ')}`,
    diagnostic_id: record.diagnostic_id,
    asset_id: asset.asset_id,
    root_cause: record.root_cause,
    confidence: record.confidence,
    status: record.status,
    fault_family: record.fault_family,
    severity: record.severity,
    energy_at_risk_kw: record.energy_at_risk_kw,
    energy_lost_kwh: record.energy_lost_kwh,
    faults: record.faults,
    recommended_actions: record.recommended_actions,
    detection_id: record.detection_id,
  };
}

/** Lists filter by asset_id when it is given (ARCHITECTURE 9). */
export async function listDetections(accountId: string, assetId?: string) {
  const items = (await detections.list(accountId, (d) => !assetId || d.asset_id === assetId)).map(({ anomalies: _a, ...d }) => publicRecord(d));
  return { success: true, detections: items, count: items.length };
}

export async function listDiagnostics(accountId: string, assetId?: string) {
  const items = (await diagnostics.list(accountId, (d) => !assetId || d.asset_id === assetId)).map(publicRecord);
  return { success: true, diagnostics: items, count: items.length };
}

/** POST /terminal/ooda: the customer's OODA summaries (of its assets). */
export async function listOodaSummaries(accountId: string, customerId: string) {
  const items = (await oodaSummaries.list(accountId, (s) => s.customer_id === customerId)).map(({ customer_id: _c, ...s }) => publicRecord(s));
  if (!items.length) throw new NotFound('No OODA summaries found');
  return { success: true, customer_id: customerId, ml_enhanced_activities: items, count: items.length };
}
