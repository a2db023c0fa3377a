/**
 * The bounds every input is held to before any store call or computation (ARCHITECTURE 9, "Ids and path
 * parameters" and "Numbers with physical meaning"). Schemas use these; shared/http/input-bounds.ts applies
 * the id and magnitude rules to every request, so a loose body cannot slip past them.
 */
import * as z from 'zod';
import { MAX_ABS_PRICE, MAX_ENERGY_KWH, MAX_POWER_KW, MAX_SERIES_VALUE } from '../domain/physical-bounds';

export { MAX_ABS_NUMBER, MIN_ABS_NONZERO_NUMBER } from '../domain/physical-bounds';

/** Ids are keys and S3 path segments: DynamoDB allows 1,024-2,048 bytes, so 128 leaves room for the prefixes. */
export const MAX_ID_LENGTH = 128;
/** Printable ASCII (space to `~`) without `/`, which would split a path or a key. */
export const ID_CHARACTERS = /^[\x20-\x2e\x30-\x7e]+$/;
export const ID_PROBLEM = `must be 1-${MAX_ID_LENGTH} printable ASCII characters without "/"`;

/** Any id field (customer, site, asset, device, order, job, model, webhook, batch, upload). */
export const identifier = () => z.string().trim().min(1).max(MAX_ID_LENGTH).regex(ID_CHARACTERS, ID_PROBLEM);

const ID = identifier();
/** True when `identifier()` accepts `value`. */
export const isIdentifier = (value: string): boolean => ID.safeParse(value).success;

/** Deepest nesting of a JSON body: no request of ours nests more than a few levels. */
export const MAX_BODY_DEPTH = 32;

/** A power in kW (never negative: a direction is a field of its own). */
export const powerKw = () => z.number().min(0).max(MAX_POWER_KW);
export const energyKwh = () => z.number().min(0).max(MAX_ENERGY_KWH);
/** A price may be negative (surplus hours in day-ahead markets). */
export const price = (): z.ZodNumber => z.number().min(-MAX_ABS_PRICE).max(MAX_ABS_PRICE);
/** A value of an uploaded or posted series, in the unit the series names. */
export const seriesValue = () => z.number().min(-MAX_SERIES_VALUE).max(MAX_SERIES_VALUE);
