/**
 * The curated policy knowledge base: data in `knowledge-base/*.json` (one file per region), checked against
 * the schema below when the module loads, so a malformed entry fails every test and never reaches a caller.
 */
import * as z from 'zod';
import euEntries from './knowledge-base/eu.json';
import naEntries from './knowledge-base/na.json';
import ssaEntries from './knowledge-base/ssa.json';
import {
  INSTALLATION_TYPES,
  OBLIGATIONS,
  POLICY_KINDS,
  POLICY_REGIONS,
  REQUIREMENT_STAGES,
  SECTORS,
  type PolicyEntry,
} from './types';

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'not a calendar date');

const sizeRange = z
  .object({ min: z.number().nonnegative().optional(), max: z.number().positive().optional() })
  .strict()
  .refine((r) => r.min === undefined || r.max === undefined || r.min <= r.max, 'min above max');

const applicability = z
  .object({
    sectors: z.array(z.enum(SECTORS)).nonempty().optional(),
    installation_types: z.array(z.enum(INSTALLATION_TYPES)).nonempty().optional(),
    project_size_kw: sizeRange.optional(),
  })
  .strict();

const requirementRecord = z
  .object({
    requirement: z.string().min(10),
    responsible_party: z.string().min(3),
    deadline: z.string().min(3),
    stage: z.enum(REQUIREMENT_STAGES),
    obligation: z.enum(OBLIGATIONS),
    applies_to: applicability.optional(),
  })
  .strict();

const incentiveRecord = z
  .object({
    program: z.string().min(3),
    benefit: z.string().min(10),
    eligibility: z.string().min(10),
    available_until: isoDate.optional(),
    closed_to_new_applicants: z.boolean().optional(),
    applies_to: applicability.optional(),
  })
  .strict();

export const policyEntrySchema = z
  .object({
    id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
    title: z.string().min(5),
    jurisdiction: z.string().regex(/^(EU|[A-Z]{2})(-[A-Z]{2})?$/),
    region: z.enum(POLICY_REGIONS),
    sector: z.array(z.enum(SECTORS)).nonempty(),
    installation_types: z.array(z.enum(INSTALLATION_TYPES)).nonempty(),
    project_size_kw: sizeRange,
    effective_date: isoDate,
    kind: z.enum(POLICY_KINDS),
    summary: z.string().min(80),
    keywords: z.array(z.string().min(2)),
    document_url: z.url({ protocol: /^https$/ }),
    requirements: z.array(requirementRecord).optional(),
    incentive: incentiveRecord.optional(),
  })
  .strict();

function loadKnowledgeBase(): readonly PolicyEntry[] {
  const entries = z.array(policyEntrySchema).parse([...euEntries, ...naEntries, ...ssaEntries]) as PolicyEntry[];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.id)) throw new Error(`Duplicate policy entry id: ${entry.id}`);
    seen.add(entry.id);
  }
  return Object.freeze(entries);
}

/** Every entry, in file order (EU, then North America, then Sub-Saharan Africa). */
export const POLICY_KNOWLEDGE_BASE: readonly PolicyEntry[] = loadKnowledgeBase();

const byId = new Map(POLICY_KNOWLEDGE_BASE.map((e) => [e.id, e]));

/** The entry with this id, or undefined. */
export function policyEntryById(id: string): PolicyEntry | undefined {
  return byId.get(id);
}
