/** Requests of the PV endpoints (ARCHITECTURE 9, "PV system specs and physics forecasts"; issue 19). */
import * as z from 'zod';
import { exact } from '../validation';
import { identifier, powerKw } from './bounds';

/** PVWatts' default DC to AC ratio (Dobos 2014): the inverter rating when a request gives none. */
export const DEFAULT_DC_AC_RATIO = 1.2;
/** PVWatts' default system losses, percent. */
export const DEFAULT_LOSSES_PCT = 14;
/** The longest physics forecast, hours (7 days). */
export const MAX_PV_HORIZON_HOURS = 168;
/** The longest estimated-actuals range per call, days. */
export const MAX_ESTIMATED_ACTUALS_DAYS = 31;

const irradiance = () => z.number().min(0).max(1_500);

export const PvSystemInput = z
  .object({
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    /** Metres; where absent, the gazetteer's or the weather provider's elevation, else 0. */
    elevation_m: z.number().min(-450).max(8_850).optional(),
    capacity_kwp: powerKw().positive(),
    tilt_deg: z.number().min(0).max(90),
    azimuth_deg: z.number().min(0).max(360),
    losses_pct: z.number().min(0).max(99).default(DEFAULT_LOSSES_PCT),
    inverter_ac_kw: powerKw().positive().optional(),
    horizon: z
      .array(z.object({ azimuth_deg: z.number().min(0).max(360), elevation_deg: z.number().min(0).max(90) }))
      .min(2)
      .max(360)
      .optional(),
  })
  .strict();
export type PvSystemInput = z.infer<typeof PvSystemInput>;

export const SitePath = z.object({ site_id: identifier() });

export const PutSiteRequest = z.object({
  customer_id: identifier(),
  pv_system: PvSystemInput,
});
export type PutSiteRequest = z.infer<typeof PutSiteRequest>;

export const SiteQuery = z.object({
  customer_id: z.string({ error: exact('Missing required parameter: customer_id') }).pipe(identifier()),
});

/** GET /api/sites/{site_id}/series: the window, by default the last days of the site's data (shared/services/uploads/site-series.ts). */
export const SiteSeriesQuery = SiteQuery.extend({
  start: z.iso.datetime({ offset: true }).optional().meta({ description: 'First instant shown (ISO 8601 with Z or an offset); default: 30 days before end.' }),
  end: z.iso.datetime({ offset: true }).optional().meta({ description: "Last instant shown; default: the end of the site's data." }),
});

/** The caller's own weather feed over the horizon (their NWP): GHI required, the rest optional. */
export const PvWeatherRow = z.object({
  timestamp: z.string().min(1),
  ghi_wm2: irradiance(),
  dni_wm2: irradiance().optional(),
  dhi_wm2: irradiance().optional(),
  temperature_c: z.number().min(-90).max(70).optional(),
  wind_speed_ms: z.number().min(0).max(100).optional(),
});
export type PvWeatherRow = z.infer<typeof PvWeatherRow>;

export const PvForecastRequest = z
  .object({
    customer_id: identifier().optional(),
    site_id: identifier().optional(),
    pv_system: PvSystemInput.optional(),
    horizon_hours: z.number().int().min(1).max(MAX_PV_HORIZON_HOURS, { error: `must be at most ${MAX_PV_HORIZON_HOURS} hours` }).default(48),
    interval_minutes: z.union([z.literal(15), z.literal(60)], { error: 'must be 15 or 60' }).default(60),
    /** Where the forecast starts; default the current hour (or quarter hour). */
    start: z.string().min(1).optional(),
    weather: z.array(PvWeatherRow).min(1).max(MAX_PV_HORIZON_HOURS * 4 + 4).optional(),
  })
  .superRefine((r, ctx) => {
    if (!r.pv_system && !(r.customer_id && r.site_id)) ctx.addIssue({ code: 'custom', message: 'send a pv_system, or a customer_id and site_id of a site with one' });
  });
export type PvForecastRequest = z.infer<typeof PvForecastRequest>;

export const EstimatedActualsQuery = z.object({
  customer_id: z.string({ error: exact('Missing required parameter: customer_id') }).pipe(identifier()),
  site_id: z.string({ error: exact('Missing required parameter: site_id') }).pipe(identifier()),
  start: z.string({ error: exact('Missing required parameter: start') }).min(1),
  end: z.string({ error: exact('Missing required parameter: end') }).min(1),
  interval_minutes: z.coerce.number().pipe(z.union([z.literal(15), z.literal(60)], { error: 'must be 15 or 60' })).default(60),
});
export type EstimatedActualsQuery = z.infer<typeof EstimatedActualsQuery>;
