/**
 * Hourly load shaped by London wall-clock time (a daytime hump from 06:00, 150 lower at weekends, seeded noise),
 * for the members that must keep their seasons on local time across the clock change of 31 March 2024.
 */
import { HOUR_MS } from '../../shared/domain/time';
import { gaussian } from './seeded-random';

/** British Summer Time 2024 began at 01:00 UTC on 31 March. */
const BST_2024_START = Date.UTC(2024, 2, 31, 1);

/** `hours` hourly values from `start` (epoch ms, UTC). */
export function londonWallClockLoad(start: number, hours: number, seed = 3): { t: number[]; y: number[] } {
  const noise = gaussian(seed);
  const t: number[] = [];
  const y: number[] = [];
  for (let i = 0; i < hours; i++) {
    const time = start + i * HOUR_MS;
    const local = new Date(time + (time >= BST_2024_START ? HOUR_MS : 0));
    const weekend = local.getUTCDay() % 6 === 0;
    t.push(time);
    y.push(1000 + 300 * Math.max(0, Math.sin((Math.PI * (local.getUTCHours() - 6)) / 14)) - (weekend ? 150 : 0) + 5 * noise());
  }
  return { t, y };
}
