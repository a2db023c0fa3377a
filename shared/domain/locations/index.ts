export { resolveLocation, timezoneAt, distanceKm, foldName, nauticalTimezone, NEAREST_CITY_MAX_KM, type ResolvedLocation } from './resolve-location';
