/** POST /api/weather-data request (SPEC 4.1). */
import * as z from 'zod';
import { DAY_MS } from '../domain/time';

export const WEATHER_PARAMETERS = ['temperature', 'solar_radiation', 'wind_speed', 'cloud_cover', 'humidity', 'pressure'] as const;
export type WeatherParameter = (typeof WEATHER_PARAMETERS)[number];

/** Longest range one request may ask for, days, both ends included (a leap year). */
export const MAX_WEATHER_RANGE_DAYS = 366;

/** The canonical IANA name of a zone Intl knows ("europe/berlin" -> "Europe/Berlin"), or undefined. */
export function canonicalTimeZone(zone: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** An IANA zone Intl knows, given back in its canonical spelling. */
export const TimeZone = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine((zone) => canonicalTimeZone(zone) !== undefined, { error: 'must be an IANA time zone such as Europe/Berlin' })
  .transform((zone) => canonicalTimeZone(zone)!);

const daysInRange = (r: { start_date: string; end_date: string }) => (Date.parse(r.end_date) - Date.parse(r.start_date)) / DAY_MS + 1;

export const WeatherDataRequest = z.object({
  location: z.object({
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    /** The zone whose calendar days the range means; by default the zone of the nearest city. */
    timezone: TimeZone.optional(),
    /** Metres; the offline model uses it (else the gazetteer's elevation). */
    elevation_m: z.number().min(-450).max(8_850).optional(),
  }),
  /** Calendar days in the location's zone, both included. */
  date_range: z
    .object({ start_date: z.iso.date(), end_date: z.iso.date() })
    .refine((r) => r.end_date >= r.start_date, { error: 'must not be before start_date', path: ['end_date'] })
    .refine((r) => daysInRange(r) <= MAX_WEATHER_RANGE_DAYS, { error: `must be at most ${MAX_WEATHER_RANGE_DAYS} days from start_date, both included`, path: ['end_date'] }),
  parameters: z
    .array(z.enum(WEATHER_PARAMETERS))
    .min(1)
    .default([...WEATHER_PARAMETERS])
    .transform((list) => [...new Set(list)]),
  /** true: the provider's forecast product for the whole range; false: the historical record where it exists. */
  forecast_mode: z.boolean().default(false),
});

export type WeatherDataRequest = z.infer<typeof WeatherDataRequest>;
