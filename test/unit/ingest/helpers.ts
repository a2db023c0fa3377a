import { createReadStream } from 'node:fs';
import path from 'node:path';
import { standardiseCsv } from '../../../shared/domain/ingest';
import type { StandardiseOptions, StandardRow } from '../../../shared/domain/ingest';

export const VENDOR_FIXTURES = path.resolve(__dirname, '../../fixtures/vendors');

export const vendorFile = (name: string) => createReadStream(path.join(VENDOR_FIXTURES, name));

/** Feeds text as an upload arrives: Buffers of `size` bytes, cut anywhere (inside characters, fields, lines). */
export async function* chunked(text: string | Buffer, size: number): AsyncGenerator<Buffer> {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

export const standardiseText = (text: string | Buffer, options: StandardiseOptions = {}, chunkSize = 64 * 1024) =>
  standardiseCsv(chunked(text, chunkSize), options);

export const iso = (t: number) => new Date(t).toISOString();

/** Rows as [ISO instant, power_kw, energy_kwh], the shape most assertions compare. */
export const triples = (rows: StandardRow[]) => rows.map((r) => [iso(r.t), r.power_kw, r.energy_kwh]);

export const peakOf = (rows: StandardRow[]) => rows.reduce((best, r) => ((r.power_kw ?? -Infinity) > (best.power_kw ?? -Infinity) ? r : best));
