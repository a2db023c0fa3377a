/**
 * Half-hourly electricity demand (MW) in England and Wales from Monday 5 June 2000, the series of
 * Taylor (2003, J. Oper. Res. Soc. 54:799-805) as published in the R package forecast (`taylor`); its
 * first eight weeks, from ../shared/data. Tests that need it skip where the file is absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const TAYLOR_CSV = process.env.TAYLOR_CSV ?? path.resolve(__dirname, '../../../shared/data/load/taylor_2000_first8weeks.csv');

export const withTaylor = existsSync(TAYLOR_CSV) ? it : it.skip;

export function readTaylor(): { t: number[]; y: number[] } {
  const rows = readFileSync(TAYLOR_CSV, 'utf8').trim().split('\n').slice(1).map((line) => line.split(','));
  return { t: rows.map((r) => Date.parse(r[0])), y: rows.map((r) => Number(r[1])) };
}
