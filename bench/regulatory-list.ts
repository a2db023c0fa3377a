/**
 * GET /api/regulatory-updates over a flooded store: N updates of one feed (default 40,000, the size of the
 * 22 MB feed that was once stored whole) in the embedded store, each query timed 7 times over HTTP; then the
 * daily pull's pruning to REGULATORY_MAX_STORED, and the same queries again.
 *   node --import tsx bench/regulatory-list.ts            (N=10000 for a quicker run)
 * Writes bench/results/regulatory-list.{json,md}.
 */
import { startLocalRuntime } from '../local/runtime';
import { config } from '../shared/config';
import { pullRegulatoryUpdates } from '../shared/services/regulatory/regulatory-updates';
import { registerAccount } from '../shared/services/accounts/accounts';
import { insertRegulatoryUpdate } from '../shared/store/regulatory-repo';
import type { Priority } from '../shared/domain/regulatory';
import { roundHalfUp } from '../shared/domain/rounding';
import { DAY_MS } from '../shared/domain/time';
import { writeResults } from './results-files';

const N = Number(process.env.N ?? 40_000);
const ROUNDS = 7;
const QUERIES = ['', '?limit=200', '?priority=high', '?region=EU', '?region=SSA&limit=200'];
const PRIORITIES: Priority[] = ['high', 'medium', 'low'];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchRegulatoryList(): Promise<void> {
  const runtime = await startLocalRuntime({ port: 0, env: { LOG_LEVEL: 'silent', RATE_LIMIT_FREE: '100000' } });
  try {
    const { api_key: key } = await registerAccount({ email: `bench-regulatory-${Date.now()}@example.com` });
    const get = async (query: string) => {
      const started = performance.now();
      const res = await fetch(`${runtime.url}/api/regulatory-updates${query}`, { headers: { 'x-api-key': key } });
      const body = (await res.json()) as { updates?: unknown[] };
      if (res.status !== 200) throw new Error(`${query}: ${res.status}`);
      return { ms: performance.now() - started, returned: body.updates?.length ?? 0 };
    };
    const timeAll = async () => {
      const rows = [];
      for (const query of QUERIES) {
        const runs = [];
        for (let r = 0; r < ROUNDS; r++) runs.push(await get(query));
        rows.push({ query: `GET /api/regulatory-updates${query}`, returned: runs[0].returned, median_ms: roundHalfUp(median(runs.map((r) => r.ms)), 1), max_ms: roundHalfUp(Math.max(...runs.map((r) => r.ms)), 1) });
      }
      return rows;
    };

    await get(''); // first use: the seed
    // US notices of one feed, one a day over ten years: the region filters match only the seed.
    for (let i = 0; i < N; i += 200) {
      await Promise.all(
        Array.from({ length: Math.min(200, N - i) }, (_, j) => {
          const k = i + j;
          const day = new Date(Date.UTC(2015, 0, 1) + (k % 3650) * DAY_MS).toISOString().slice(0, 10);
          return insertRegulatoryUpdate({
            id: `bench-${k}`,
            title: `Notice ${k} on interconnection procedures`,
            summary: 'A notice of the commission about procedures, '.repeat(8),
            impact_assessment: `Notice; topics: interconnection; affects utilities; US; effective ${day}`,
            priority: PRIORITIES[k % 3],
            source: 'Federal Register',
            effective_date: day,
            document_url: `https://www.federalregister.gov/d/${k}`,
            region: 'NA',
            jurisdiction: 'US',
            published_at: `${day}T12:00:00Z`,
          });
        }),
      );
    }
    const flooded = await timeAll();
    const pulls = [];
    for (;;) {
      const started = performance.now();
      const { pruned } = await pullRegulatoryUpdates(async () => '', []);
      pulls.push({ pruned, ms: Math.round(performance.now() - started) });
      if (!pruned) break;
    }
    const bounded = await timeAll();

    const out = { measured_at: new Date().toISOString(), stored: N, max_stored: config().REGULATORY_MAX_STORED, rounds: ROUNDS, flooded, pulls, bounded };
    const table = (rows: typeof flooded) => rows.map((r) => `| \`${r.query}\` | ${r.returned} | ${r.median_ms} | ${r.max_ms} |`);
    const lines = [
      '# Regulatory updates list benchmark',
      '',
      `${N.toLocaleString('en')} updates of one feed (US, one a day over ten years) beside the 19 of the seed, in the embedded store, over HTTP; ${ROUNDS} runs each.`,
      '',
      '| query | updates | median ms | max ms |',
      '|---|---|---|---|',
      ...table(flooded),
      '',
      `Then the daily pull's pruning to REGULATORY_MAX_STORED (${out.max_stored}) besides the seed: ${pulls.map((p) => `${p.pruned} deleted in ${p.ms} ms`).join(', ')}.`,
      '',
      '| query | updates | median ms | max ms |',
      '|---|---|---|---|',
      ...table(bounded),
      '',
    ];
    writeResults('regulatory-list', out, lines.join('\n'));
  } finally {
    await runtime.close();
  }
}

