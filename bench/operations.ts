/**
 * Asset-operations benchmark: detection over one year of 15-minute data for one asset (time, memory, and
 * precision/recall on the labelled pvanalytics files; bench/operations-detection.ts), precision and recall on
 * faults injected across seasons and latitudes (bench/operations-faults.ts), and webhook fan-out:
 * 1,000 events to 10 loopback receivers through the event rule, the webhooks queue and the delivery
 * worker of the local runtime, counting deliveries per second, lost and duplicated deliveries (a receiver
 * de-duplicates by webhook-id). Writes bench/results/operations.{json,md}.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { publishEvent } from '../shared/events/event-bus';
import { authenticate } from '../shared/access/authentication';
import { benchDetection } from './operations-detection';
import { benchInjectedFaults, faultTableMarkdown } from './operations-faults';
import { enterpriseRuntime } from './enterprise-runtime';
import { writeResults } from './results-files';

const EVENTS = 1000;
const RECEIVERS = 10;

async function webhookFanOut() {
  const { runtime, apiKey } = await enterpriseRuntime('ops');
  const received = new Map<string, number>();
  let total = 0;
  const server = http.createServer((req, res) => {
    req.resume().on('end', () => {
      const id = `${req.url} ${req.headers['webhook-id']}`;
      received.set(id, (received.get(id) ?? 0) + 1);
      total++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    for (let k = 0; k < RECEIVERS; k++) {
      const res = await fetch(`${runtime.url}/api/webhooks`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ webhook_url: `${base}/receiver-${k}`, events: ['training_completed'], secret: `whsec_${Buffer.from(`bench-secret-${k}-padding-bytes`).toString('base64')}` }),
      });
      if (res.status >= 300) throw new Error(`registration failed: ${res.status} ${await res.text()}`);
    }
    const { accountId } = await authenticate(apiKey);
    const expected = EVENTS * RECEIVERS;
    const started = performance.now();
    for (let e = 0; e < EVENTS; e++) await publishEvent('training_completed', accountId, { job_id: `bench-${e}` });
    const published = performance.now();
    const deadline = Date.now() + 300_000;
    while (received.size < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const done = performance.now();
    // Retries would arrive late: wait a little for any duplicate.
    await new Promise((r) => setTimeout(r, 2000));
    return {
      events: EVENTS,
      receivers: RECEIVERS,
      expected_deliveries: expected,
      delivered_unique: received.size,
      lost: expected - received.size,
      duplicated: total - received.size,
      publish_seconds: Math.round(published - started) / 1000,
      seconds_to_last_delivery: Math.round(done - started) / 1000,
      deliveries_per_second: Math.round((received.size / (done - started)) * 1000),
    };
  } finally {
    server.close();
    server.closeAllConnections();
    await runtime.close();
  }
}

export async function benchOperations(): Promise<void> {
  const detection = await benchDetection();
  const injected_faults = await benchInjectedFaults();
  console.log(`\nDetection on injected faults, per family and season (${injected_faults.method}):\n\n${faultTableMarkdown(injected_faults.by_family_and_season)}\n`);
  const webhooks = await webhookFanOut();
  const out = { measured_at: new Date().toISOString(), detection, injected_faults, webhooks, targets: { wanted: 'detection of a 15-minute year under 1 s; no lost or duplicated webhook delivery' } };
  const md = ['# Asset-operations benchmark', '', '## Detection on injected faults, per family and season', '', faultTableMarkdown(injected_faults.by_family_and_season), '', '```json', JSON.stringify(out, null, 2), '```', ''].join('\n');
  writeResults('operations', out, md);
}
