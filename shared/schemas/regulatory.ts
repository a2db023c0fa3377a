/** GET /api/regulatory-updates query parameters (SPEC 4.1 leaves them open; README: regulatory updates). */
import * as z from 'zod';

const PRIORITIES = ['high', 'medium', 'low'] as const;

export const RegulatoryUpdatesQuery = z.object({
  /** A region (`EU`, `NA`, `SSA`) or a jurisdiction code (`US`, `US-CA`, `DE`, `ZA`, ...). */
  region: z.string().trim().min(2).max(10).regex(/^[A-Za-z-]+$/, 'must be a region or jurisdiction code such as EU, NA, SSA, US, DE or ZA').optional(),
  /** YYYY-MM-DD: updates published (or, when the publication date is unknown, effective) on or after it. */
  since: z.iso.date().optional(),
  /** One priority or several, comma-separated. */
  priority: z
    .string()
    .transform((s) => s.split(',').map((p) => p.trim().toLowerCase()))
    .pipe(z.array(z.enum(PRIORITIES)).min(1))
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type RegulatoryUpdatesQuery = z.infer<typeof RegulatoryUpdatesQuery>;
