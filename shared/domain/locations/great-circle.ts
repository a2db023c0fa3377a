/** Distances on the Earth's surface, for nearest-place look-ups (the gazetteer, terrain elevations). */
import { DEG } from '../angles';

/** The IUGG mean Earth radius, km. */
const EARTH_RADIUS_KM = 6371.0088;

/** Great-circle distance, km (haversine). */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const a = Math.sin(((lat2 - lat1) * DEG) / 2) ** 2 + Math.cos(lat1 * DEG) * Math.cos(lat2 * DEG) * Math.sin(((lon2 - lon1) * DEG) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}
