/**
 * Curated past updates (`seed-updates.json`) that a fresh store starts with, so the endpoint has the
 * measures that shaped each region before the first pull. Summaries are our own words; each links to the
 * official publisher. They pass through the same id hashing and priority rules as pulled items.
 */
import * as z from 'zod';
import { updateId } from './links';
import { assessUpdate } from './priority';
import seed from './seed-updates.json';
import type { RegulatoryUpdate } from './types';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a YYYY-MM-DD date');

const SeedRecord = z.object({
  title: z.string().min(1),
  summary: z.string().min(1),
  source: z.string().min(1),
  effective_date: isoDate,
  published_at: isoDate.nullable(),
  document_url: z.url({ protocol: /^https?$/ }),
  region: z.enum(['EU', 'NA', 'SSA']),
  jurisdiction: z.string().min(2),
});

/** The curated updates, validated, with ids and assessments computed. */
export function seedUpdates(): RegulatoryUpdate[] {
  const records = z.array(SeedRecord).parse(seed);
  return records.map((record) => {
    const assessment = assessUpdate({
      title: record.title,
      summary: record.summary,
      jurisdiction: record.jurisdiction,
      statedEffectiveDate: record.effective_date,
      ...(record.published_at ? { publishedDate: record.published_at } : {}),
    });
    return {
      id: updateId({ link: record.document_url }),
      title: record.title,
      summary: record.summary,
      impact_assessment: assessment.impact_assessment,
      priority: assessment.priority,
      source: record.source,
      effective_date: record.effective_date,
      document_url: record.document_url,
      region: record.region,
      jurisdiction: record.jurisdiction,
      published_at: record.published_at ? `${record.published_at}T00:00:00.000Z` : null,
    };
  });
}
