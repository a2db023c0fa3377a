/**
 * Observe and Orient over HTTP: detection and diagnosis on an asset's site data, the OODA summary, and
 * the automatic run after a nowcast upload.
 */
import { call, registerKey, useRuntime } from '../helpers/runtime';
import { form, postForm, settled } from '../helpers/uploads';
import { clearSkyGhiAt } from '../../shared/domain/weather/clear-sky';

const HOUR = 3_600_000;
const STEP = 15 * 60_000;
const BERLIN = { latitude: 52.52, longitude: 13.405 };
const CAPACITY_KW = 10;
const uid = () => Math.random().toString(36).slice(2, 10);

/** Clear-sky production of a 10 kW system in Berlin, 15-minute steps, `tripped` days zero between `hours` UTC (10:00 to 13:00). */
function clearSkyCsv(from: number, days: number, trippedDays: readonly number[] = [], [fromHour, toHour] = [10, 13]): string {
  const lines = ['timestamp,power_kw'];
  for (let t = from; t < from + days * 24 * HOUR; t += STEP) {
    const day = Math.floor((t - from) / (24 * HOUR));
    const hour = new Date(t).getUTCHours();
    const tripped = trippedDays.includes(day) && hour >= fromHour && hour < toHour;
    const kw = tripped ? 0 : (0.85 * CAPACITY_KW * clearSkyGhiAt(new Date(t), BERLIN)) / 1000;
    lines.push(`${new Date(t).toISOString()},${kw.toFixed(3)}`);
  }
  return lines.join('\n') + '\n';
}

describe('detection, diagnosis and the OODA summary', () => {
  const runtime = useRuntime();
  let key: string;
  const post = (endpoint: string, json: unknown) => call(runtime(), 'POST', `/terminal/${endpoint}`, { key, json });

  beforeAll(async () => {
    key = (await registerKey(runtime())).key;
  });

  async function siteWithAsset(csv: string) {
    const ids = { customer_id: `cust-${uid()}`, site_id: `site-${uid()}`, region: 'eu-central-1', location: 'Berlin' };
    const up = await postForm(runtime(), '/upload_train', key, form(ids, csv));
    expect(await settled(runtime(), key, up.body.upload_id)).toMatchObject({ status: 'processed' });
    const asset_id = `inv-${uid()}`;
    await post('assets', { action: 'add', asset_id, name: 'Roof inverter', type: 'inverter', capacity_kw: CAPACITY_KW, location: 'Berlin', customer_id: ids.customer_id, site_id: ids.site_id });
    return { ...ids, asset_id };
  }

  it('finds the noon trip, diagnoses an inverter trip citing the times, and keeps the OODA summary', async () => {
    const from = Date.UTC(2026, 5, 1);
    const site = await siteWithAsset(clearSkyCsv(from, 14, [12]));

    const detection = await post('detect', { action: 'run', asset_id: site.asset_id });
    expect(detection.body).toMatchObject({ success: true, status: 'completed', asset_id: site.asset_id });
    expect(detection.body.anomalies_detected).toBeGreaterThanOrEqual(1);
    const trip = detection.body.anomalies.find((a: { kind: string }) => a.kind === 'zero_output');
    expect(trip).toMatchObject({ start: '2026-06-13T10:00:00.000Z' });
    expect(trip.energy_at_risk_kwh).toBeGreaterThan(10);

    const diagnosis = await post('diagnose', { action: 'run', asset_id: site.asset_id });
    expect(diagnosis.body).toMatchObject({ success: true, status: 'completed', fault_family: 'inverter_trip' });
    expect(diagnosis.body.confidence).toBeGreaterThan(0.5);
    expect(diagnosis.body.root_cause).toMatch(/2026-06-13/);

    const ooda = await post('ooda', { customer_id: site.customer_id });
    expect(ooda.body).toMatchObject({ success: true, customer_id: site.customer_id, count: 1, ml_enhanced_activities: [{ asset_id: site.asset_id, fault_family: 'inverter_trip', model_version: 'ooda-rules-1' }] });
    expect(ooda.body.ml_enhanced_activities[0].detections).toContain(diagnosis.body.detection_id);

    const listed = await post('detect', { action: 'list', asset_id: site.asset_id });
    expect(listed.body.count).toBe(2); // the run, and the observation diagnosis made
  });

  it('catches an inverter dead for four November days in Berlin, and puts its output at risk', async () => {
    const from = Date.UTC(2026, 10, 1);
    const site = await siteWithAsset(clearSkyCsv(from, 21, [14, 15, 16, 17], [0, 24]));

    const detection = await post('detect', { action: 'run', asset_id: site.asset_id });
    const zeros = detection.body.anomalies.filter((a: { kind: string }) => a.kind === 'zero_output');
    expect(zeros).toHaveLength(1);
    expect(zeros[0]).toMatchObject({ severity: 'critical', start: expect.stringMatching(/^2026-11-15T0[6-8]:/), end: expect.stringMatching(/^2026-11-18T1[4-6]:/) });

    const diagnosis = await post('diagnose', { action: 'run', asset_id: site.asset_id });
    expect(diagnosis.body).toMatchObject({ fault_family: 'inverter_trip', severity: 'critical', faults: [expect.objectContaining({ family: 'inverter_trip' })] });
    // A Berlin November day's mean daylight output at this rating: 1-3 kW; four days' worth lost.
    expect(diagnosis.body.energy_at_risk_kw).toBeGreaterThan(1);
    expect(diagnosis.body.energy_at_risk_kw).toBeLessThan(3);
    expect(diagnosis.body.energy_lost_kwh).toBeGreaterThan(40);
  });

  it('completes with no anomalies and says why for an asset without a site, and diagnoses nothing', async () => {
    const asset_id = `inv-${uid()}`;
    await post('assets', { action: 'add', asset_id, name: 'Spare', type: 'inverter', capacity_kw: 5, location: 'Berlin' });
    expect((await post('detect', { action: 'run', asset_id })).body).toMatchObject({ anomalies_detected: 0, status: 'completed', message: expect.stringMatching(/linked to no site/) });
    expect((await post('diagnose', { action: 'run', asset_id })).body).toMatchObject({ confidence: 0, fault_family: 'none', root_cause: expect.stringMatching(/^Nothing to diagnose/) });
    expect(await post('ooda', { customer_id: `cust-${uid()}` })).toMatchObject({ status: 404, body: { message: 'No OODA summaries found' } });
    expect(await post('ooda', {})).toMatchObject({ status: 400, body: { message: 'Missing required field: customer_id' } });
  });

  it('runs detection and diagnosis by itself after a nowcast for a site with assets', async () => {
    const from = Date.UTC(2026, 5, 1);
    const site = await siteWithAsset(clearSkyCsv(from, 10));
    const nowcast = await postForm(runtime(), '/upload_nowcast', key, form(site, clearSkyCsv(from + 10 * 24 * HOUR, 1, [0])));
    await settled(runtime(), key, nowcast.body.upload_id);

    let detections: { trigger?: string }[] = [];
    for (let i = 0; i < 100 && !detections.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      detections = (await post('detect', { action: 'list', asset_id: site.asset_id })).body.detections;
    }
    expect(detections).toEqual([expect.objectContaining({ trigger: 'nowcast', anomalies_detected: expect.any(Number) })]);
    let summaries = { count: 0 } as { count: number; ml_enhanced_activities?: { fault_family: string }[] };
    for (let i = 0; i < 100 && !summaries.count; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const r = await post('ooda', { customer_id: site.customer_id });
      if (r.status === 200) summaries = r.body;
    }
    expect(summaries.ml_enhanced_activities?.[0].fault_family).toBe('inverter_trip');
  });
});
