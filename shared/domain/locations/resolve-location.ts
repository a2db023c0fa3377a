/**
 * Free-text locations -> coordinates and time zone, offline, from the city-timezones gazetteer
 * (7,300 cities with coordinates, population and IANA zone; Natural Earth populated places).
 */
import type { CityData } from 'city-timezones';
import { readPackageJson } from '../../package-data.cjs';
import { distanceKm } from './great-circle';

export { distanceKm } from './great-circle';

export interface ResolvedLocation {
  name: string;
  latitude: number;
  longitude: number;
  /** IANA time zone. */
  timezone: string;
  country?: string;
  /** ISO 3166-1 alpha-2 of the city (or, for coordinates, of the nearest city within NEAREST_CITY_MAX_KM): the public holidays of load forecasts. */
  countryCode?: string;
}

/** How far the nearest gazetteer city may be for coordinates to take its time zone. */
export const NEAREST_CITY_MAX_KM = 500;


interface City {
  name: string;
  keys: Set<string>;
  country: string;
  /** ISO 3166-1 alpha-2, or '' where the gazetteer has none. */
  iso2: string;
  countryKeys: Set<string>;
  latitude: number;
  longitude: number;
  population: number;
  timezone: string;
}

/** Lower case, accents folded, punctuation to spaces: "Zürich" and "zurich", "São Paulo" and "sao-paulo" meet. */
export function foldName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

let cities: City[] | undefined;

function gazetteer(): City[] {
  // The package's own table (its index.js only wraps it), read on first use rather than bundled.
  cities ??= readPackageJson<CityData[]>('city-timezones', 'data/cityMap.json')
    .filter((c: CityData) => typeof c.timezone === 'string' && c.timezone.length > 0) // a few Antarctic stations have none
    .map((c: CityData) => ({
      name: c.city,
      keys: new Set([foldName(c.city), foldName(c.city_ascii)]),
      country: c.country,
      iso2: /^[A-Z]{2}$/.test(c.iso2 ?? '') ? c.iso2 : '', // Kosovo and Somaliland have none
      countryKeys: new Set([c.country, c.iso2, c.iso3, c.province, c.state_ansi].filter((v): v is string => typeof v === 'string' && v.length > 0).map(foldName)),
      latitude: c.lat,
      longitude: c.lng,
      population: c.pop,
      timezone: c.timezone,
    }));
  return cities;
}

/** The fixed-offset zone of a longitude's nautical time zone (15 degrees each). IANA's Etc/GMT signs are inverted. */
export function nauticalTimezone(longitude: number): string {
  const offset = Math.round(longitude / 15);
  if (offset === 0) return 'Etc/GMT';
  return offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}

const COORDINATES = /^\s*([+-]?\d{1,3}(?:\.\d+)?)\s*(?:,|;|\s)\s*([+-]?\d{1,3}(?:\.\d+)?)\s*$/;

function fromCoordinates(text: string): ResolvedLocation | undefined {
  const m = COORDINATES.exec(text);
  if (!m) return undefined;
  const [latitude, longitude] = [Number(m[1]), Number(m[2])];
  if (!(latitude >= -90 && latitude <= 90 && longitude >= -180 && longitude <= 180)) return undefined;
  const city = nearestCity(latitude, longitude);
  return { name: `${latitude},${longitude}`, latitude, longitude, timezone: city?.timezone ?? nauticalTimezone(longitude), ...(city?.iso2 ? { countryCode: city.iso2 } : {}) };
}

/**
 * The IANA zone of a point: that of the nearest gazetteer city within NEAREST_CITY_MAX_KM, else the nautical
 * zone of the longitude (open sea, deserts, ice).
 */
export function timezoneAt(latitude: number, longitude: number): string {
  return nearestCity(latitude, longitude)?.timezone ?? nauticalTimezone(longitude);
}

/** The nearest gazetteer city within NEAREST_CITY_MAX_KM, if any. */
function nearestCity(latitude: number, longitude: number): City | undefined {
  let nearest: City | undefined;
  let best = Infinity;
  for (const city of gazetteer()) {
    const d = distanceKm(latitude, longitude, city.latitude, city.longitude);
    if (d < best) [best, nearest] = [d, city];
  }
  return best <= NEAREST_CITY_MAX_KM ? nearest : undefined;
}

function fromName(text: string): ResolvedLocation | undefined {
  const [cityPart, ...rest] = text.split(',');
  const key = foldName(cityPart);
  const qualifiers = rest.map(foldName);
  if (!key || qualifiers.some((q) => !q)) return undefined;
  // Every qualifier must name the city's country, ISO code, province or state: "Portland, Oregon, US".
  const matches = gazetteer().filter((c) => c.keys.has(key) && qualifiers.every((q) => c.countryKeys.has(q)));
  if (!matches.length) return undefined;
  const city = matches.reduce((a, b) => (b.population > a.population ? b : a)); // ties: the most populous
  return { name: city.name, latitude: city.latitude, longitude: city.longitude, timezone: city.timezone, country: city.country, ...(city.iso2 ? { countryCode: city.iso2 } : {}) };
}

/**
 * Resolves "lat,lon" (decimal degrees) or a city name, optionally qualified by country, ISO code,
 * province or state ("Paris, FR", "London, Canada", "Springfield, Illinois", "Portland, Oregon, US"). Among equal names the most populous
 * city wins. Coordinates take the time zone of the nearest gazetteer city within NEAREST_CITY_MAX_KM, else
 * the nautical zone of their longitude. Undefined when nothing matches.
 */
export function resolveLocation(text: string): ResolvedLocation | undefined {
  if (typeof text !== 'string' || !text.trim()) return undefined;
  return COORDINATES.test(text) ? fromCoordinates(text) : fromName(text);
}
