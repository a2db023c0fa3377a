/**
 * The object key layout of uploads (SPEC 2, upload acknowledgement; ARCHITECTURE 9, S3 key segments):
 * `<nowcast|historical>/<customer>/<site>/<region>/<location>/<manufacturer>/<YYYYMMDD_HHMMSS>_<realtime|historical>.csv`
 * and the layout of what processing derives from them.
 */

export type UploadKind = 'nowcast' | 'historical';

const FILE_SUFFIX: Record<UploadKind, string> = { nowcast: 'realtime', historical: 'historical' };

/** Lower case, characters outside a-z 0-9 - _ . replaced by '-', no '..', never empty. */
export function slugSegment(value: string | undefined): string {
  const slug = (value ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[-.]+|[-.]+$/g, '');
  return slug || 'unknown';
}

/** UTC `YYYYMMDD_HHMMSS`. */
export function fileStamp(at: Date): string {
  const iso = at.toISOString();
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}_${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
}

export interface UploadKeyParts {
  kind: UploadKind;
  customer: string;
  site: string;
  region: string;
  location: string;
  manufacturer: string;
  at: Date;
}

export function uploadKey(p: UploadKeyParts): string {
  const segments = [p.customer, p.site, p.region, p.location, p.manufacturer].map(slugSegment);
  return [p.kind, ...segments, `${fileStamp(p.at)}_${FILE_SUFFIX[p.kind]}.csv`].join('/');
}

const KEY_PATTERN = /^(nowcast|historical)\/([^/]+)\/([^/]+)\/([^/]+)\/([^/]+)\/([^/]+)\/(\d{4})(\d{2})(\d{2})_(\d{2})(\d{2})(\d{2})_(realtime|historical)\.csv$/;

/** The parts of a key in the layout (a file dropped straight into the bucket), or undefined. */
export function parseUploadKey(key: string): UploadKeyParts | undefined {
  const m = KEY_PATTERN.exec(key);
  if (!m || FILE_SUFFIX[m[1] as UploadKind] !== m[13]) return undefined;
  const [, kind, customer, site, region, location, manufacturer, y, mo, d, h, mi, s] = m;
  const at = new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s));
  if (Number.isNaN(at.getTime())) return undefined;
  return { kind: kind as UploadKind, customer, site, region, location, manufacturer, at };
}

/** Where the standardised series of a site is kept: one object per UTC month. */
export const seriesPrefix = (customer: string, site: string) => `series/${slugSegment(customer)}/${slugSegment(site)}/`;
export const seriesKey = (customer: string, site: string, month: string) => `${seriesPrefix(customer, site)}${month}.csv`;

/** Hourly weather of a site for a month, added at ingestion. */
export const weatherPrefix = (customer: string, site: string) => `weather/${slugSegment(customer)}/${slugSegment(site)}/`;
export const weatherKey = (customer: string, site: string, month: string) => `${weatherPrefix(customer, site)}${month}.json`;

/** Artifacts of a trained model: model, encoders and config, each a JSON object. */
export const modelArtifactKey = (customer: string, site: string, modelId: string, part: 'model' | 'encoders' | 'config') =>
  `models/${slugSegment(customer)}/${slugSegment(site)}/${slugSegment(modelId)}/${part}.json`;

/** Where a file that failed processing is kept, beside the reason on its upload record. */
export const quarantineKey = (key: string) => `quarantine/${key}`;

/** S3 event keys are URL-encoded with spaces as '+'. */
export const decodeEventKey = (key: string) => decodeURIComponent(key.replace(/\+/g, ' '));
