/** From parsed feed items to new regulatory updates: de-duplicated, dated, prioritised. */
import { dateOf, extractEffectiveDate } from './dates';
import { dedupeKeys, normaliseLink, updateId } from './links';
import { assessUpdate } from './priority';
import type { FeedItem, FeedSource, RegulatoryUpdate } from './types';

/**
 * The effective date of an item: a date its text states ("effective January 1, 2026"), else the day it was
 * published (UTC), else `today`.
 */
export function effectiveDateOf(item: Pick<FeedItem, 'title' | 'summary' | 'published'>, today: string): { date: string; stated: boolean } {
  const stated = extractEffectiveDate(`${item.title}. ${item.summary}`);
  if (stated) return { date: stated, stated: true };
  return { date: item.published ? dateOf(item.published) : today, stated: false };
}

/**
 * The updates of `items` that are new: not under any key in `existing` (see `dedupeKeys`: normalised link and
 * guid) and not repeated earlier in `items`. `today` (YYYY-MM-DD) dates an item that states no effective date
 * and has no publication date. `existing` is read, never changed.
 */
export function toUpdates(items: readonly FeedItem[], source: FeedSource, existing: ReadonlySet<string>, today: string): RegulatoryUpdate[] {
  const seen = new Set<string>();
  const updates: RegulatoryUpdate[] = [];
  for (const item of items) {
    const keys = dedupeKeys(item);
    if (keys.length === 0 || keys.some((key) => existing.has(key) || seen.has(key))) continue;
    keys.forEach((key) => seen.add(key));

    const effective = effectiveDateOf(item, today);
    const assessment = assessUpdate({
      title: item.title,
      summary: item.summary,
      jurisdiction: source.jurisdiction,
      ...(effective.stated ? { statedEffectiveDate: effective.date } : {}),
      ...(item.published ? { publishedDate: dateOf(item.published) } : {}),
    });
    const link = item.link ? normaliseLink(item.link) : undefined;
    updates.push({
      id: updateId(item),
      title: item.title,
      summary: item.summary || item.title,
      impact_assessment: assessment.impact_assessment,
      priority: assessment.priority,
      source: item.source || source.name,
      effective_date: effective.date,
      // An item known only by a non-URL guid has no document to point at but its feed.
      document_url: link ?? source.url,
      region: source.region,
      // Upper case, as the list's filter compares it (`us-ca` configured is `US-CA` stored).
      jurisdiction: source.jurisdiction.toUpperCase(),
      published_at: item.published ?? null,
    });
  }
  return updates;
}
