/**
 * Building blocks of the response schemas. Objects are loose: an answer may carry fields beyond the
 * spec's (ARCHITECTURE 9 adds several), and the document says so rather than failing them.
 */
import * as z from 'zod';

/** An instant in ISO 8601 with `Z` or an offset. */
export const timestamp = () => z.iso.datetime({ offset: true });
/** A calendar date, YYYY-MM-DD. */
export const date = () => z.iso.date();

/** The asset-operations envelope (SPEC section 2): `success` and the action's fields. */
export const terminalAnswer = <T extends z.ZodRawShape>(shape: T) => z.looseObject({ success: z.literal(true), ...shape });

/** An asset-operations listing: `success`, the items under `name`, and `count`. */
export const terminalList = (name: string, item: z.ZodType) => z.looseObject({ success: z.literal(true), count: z.number().int().min(0), [name]: z.array(item) });

/** The platform success envelope of the endpoints the spec leaves unshown: `status: "success"`. */
export const success = <T extends z.ZodRawShape>(shape: T) => z.looseObject({ status: z.literal('success'), ...shape });
