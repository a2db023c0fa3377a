/** Uploading CSV files over HTTP in tests, and waiting for their processing. */
import type { LocalRuntime } from '../../local/runtime';
import { call, type HttpAnswer } from './runtime';

const HOUR = 3_600_000;

/**
 * Hourly solar-like production (kW) ending at `end`: zero at night, a half sine by day (UTC hours 4-20),
 * times `dayFactor(day)` (day 0 is the first day) when given.
 */
export function solarCsv(hours: number, end = Date.UTC(2026, 5, 30, 23), scale = 1, dayFactor?: (day: number) => number): string {
  const lines = ['timestamp,power_kw'];
  for (let i = hours - 1; i >= 0; i--) {
    const t = end - i * HOUR;
    const h = new Date(t).getUTCHours();
    const factor = dayFactor ? dayFactor(Math.floor((hours - 1 - i) / 24)) : 1;
    const kw = h >= 4 && h <= 20 ? Math.round(5 * scale * factor * Math.sin((Math.PI * (h - 4)) / 16) * 1000) / 1000 : 0;
    lines.push(`${new Date(t).toISOString()},${kw}`);
  }
  return lines.join('\n') + '\n';
}

export function form(fields: Record<string, string | undefined>, csv?: string): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) f.append(k, v);
  if (csv !== undefined) f.append('file', new Blob([csv], { type: 'text/csv' }), 'data.csv');
  return f;
}

export async function postForm(runtime: LocalRuntime, path: string, key: string, body: FormData): Promise<HttpAnswer> {
  const res = await fetch(runtime.url + path, { method: 'POST', headers: { 'x-api-key': key }, body });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

/** The upload's status once processing has finished (processed or failed). */
export async function settled(runtime: LocalRuntime, key: string, uploadId: string) {
  for (let i = 0; i < 400; i++) {
    await runtime.s3Events.idle();
    const r = await call(runtime, 'GET', `/api/uploads/${uploadId}`, { key });
    if (['processed', 'failed'].includes(r.body.status)) return r.body;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('upload did not settle');
}
