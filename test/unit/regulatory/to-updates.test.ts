import { dedupeKeys, normaliseLink, updateId } from '../../../shared/domain/regulatory/links';
import { parseFeed } from '../../../shared/domain/regulatory/parse-feed';
import { toUpdates } from '../../../shared/domain/regulatory/to-updates';
import { extractEffectiveDate } from '../../../shared/domain/regulatory/dates';
import type { FeedItem } from '../../../shared/domain/regulatory/types';
import { feedFixture, ferc, regulator } from './helpers';

const TODAY = '2025-12-01';

function item(overrides: Partial<FeedItem>): FeedItem {
  return { guid: 'g', title: 'Notice', summary: '', source: 'Test feed', ...overrides };
}

describe('normaliseLink', () => {
  it('drops tracking parameters, the fragment and the trailing slash, and lower-cases the host', () => {
    expect(normaliseLink('https://WWW.FERC.gov/News/Item-1/?utm_source=x&utm_medium=rss&fbclid=abc#top')).toBe('https://www.ferc.gov/News/Item-1');
  });

  it('keeps parameters that select the document, sorted', () => {
    expect(normaliseLink('https://example.org/doc?id=7&utm_campaign=z&lang=en')).toBe('https://example.org/doc?id=7&lang=en');
    expect(normaliseLink('https://example.org/doc?lang=en&id=7')).toBe('https://example.org/doc?id=7&lang=en');
  });

  it('refuses what is not an absolute http(s) URL', () => {
    expect(normaliseLink('/relative')).toBeUndefined();
    expect(normaliseLink('javascript:alert(1)')).toBeUndefined();
  });
});

describe('update ids', () => {
  it('are a 16-hex-digit SHA-256 prefix of the normalised link, equal across tracking variants', () => {
    const plain = updateId({ link: 'https://example.org/rule' });
    expect(plain).toMatch(/^[0-9a-f]{16}$/);
    expect(updateId({ link: 'https://EXAMPLE.org/rule/?utm_source=rss' })).toBe(plain);
    expect(updateId({ link: 'http://example.org/rule' })).toBe(plain);
    expect(updateId({ link: 'https://example.org/other-rule' })).not.toBe(plain);
  });

  it('come from the guid when there is no link, and a URL guid keys like the link', () => {
    expect(updateId({ guid: 'notice-1' })).toBe(updateId({ guid: ' notice-1 ' }));
    expect(dedupeKeys({ guid: 'https://example.org/rule', link: 'https://example.org/rule?utm_medium=rss' })).toHaveLength(1);
    expect(dedupeKeys({ guid: 'tag:example.org,2025:1', link: 'https://example.org/rule' })).toHaveLength(2);
  });
});

describe('toUpdates', () => {
  const feed = parseFeed(feedFixture('federal-register-ferc.rss'), ferc);

  it('turns items into updates of the spec shape, with region, jurisdiction and the clean link', () => {
    const [rule] = toUpdates(feed.items, ferc, new Set(), TODAY);
    expect(rule).toEqual({
      id: updateId({ link: 'https://www.federalregister.gov/documents/2025/10/31/2025-19876/improvements-to-generator-interconnection-procedures-and-agreements' }),
      title: 'Improvements to Generator Interconnection Procedures and Agreements',
      summary: feed.items[0].summary,
      impact_assessment: 'Final rule on interconnection; affects grid connection of solar and storage projects in US; effective 2026-01-01.',
      priority: 'high',
      source: 'Federal Register: Federal Energy Regulatory Commission',
      effective_date: '2026-01-01',
      document_url: 'https://www.federalregister.gov/documents/2025/10/31/2025-19876/improvements-to-generator-interconnection-procedures-and-agreements',
      region: 'NA',
      jurisdiction: 'US',
      published_at: '2025-10-31T08:00:00.000Z',
    });
  });

  it('adds nothing on a second pull of the same feed', () => {
    const first = toUpdates(feed.items, ferc, new Set(), TODAY);
    const known = new Set(feed.items.flatMap(dedupeKeys));
    expect(first).toHaveLength(4);
    expect(toUpdates(parseFeed(feedFixture('federal-register-ferc.rss'), ferc).items, ferc, known, TODAY)).toEqual([]);
  });

  it('treats tracking-parameter variants of one link as one update, within a pull and across pulls', () => {
    const variants = [
      item({ guid: 'a', link: 'https://example.org/rule?utm_source=newsletter' }),
      item({ guid: 'b', link: 'https://Example.org/rule/' }),
      item({ guid: 'c', link: 'https://example.org/rule?utm_medium=rss&gclid=1#section' }),
    ];
    expect(toUpdates(variants, ferc, new Set(), TODAY)).toHaveLength(1);
    const known = new Set(dedupeKeys({ link: 'https://example.org/rule' }));
    expect(toUpdates(variants, ferc, known, TODAY)).toEqual([]);
  });

  it('treats a known guid under a new link as the same update', () => {
    const known = new Set(dedupeKeys({ guid: 'notice-2025-117', link: 'https://notices.example.org/old-address' }));
    const moved = item({ guid: 'notice-2025-117', link: 'https://notices.example.org/new-address' });
    expect(toUpdates([moved], regulator, known, TODAY)).toEqual([]);
  });

  it('dates an update by the effective date its text states, else its publication day, else today', () => {
    const [stated, published, neither] = toUpdates(
      [
        item({ guid: '1', summary: 'The rule takes effect on 1st March 2026.', published: '2025-11-01T10:00:00.000Z' }),
        item({ guid: '2', published: '2025-11-01T23:30:00.000Z' }),
        item({ guid: '3' }),
      ],
      regulator,
      new Set(),
      TODAY,
    );
    expect(stated.effective_date).toBe('2026-03-01');
    expect(published.effective_date).toBe('2025-11-01');
    expect(neither.effective_date).toBe(TODAY);
    expect(neither.published_at).toBeNull();
  });

  it('points a guid-only update at its feed and uses the title when there is no summary', () => {
    const [update] = toUpdates([item({ guid: 'notice-9', title: 'Grid code notice' })], regulator, new Set(), TODAY);
    expect(update.document_url).toBe(regulator.url);
    expect(update.summary).toBe('Grid code notice');
  });
});

describe('extractEffectiveDate', () => {
  it.each([
    ['This rule is effective January 1, 2026.', '2026-01-01'],
    ['Effective Jan. 15 2026, utilities must file.', '2026-01-15'],
    ['with effect from 1 July 2025', '2025-07-01'],
    ['The regulations come into operation on the 1st of July, 2025.', '2025-07-01'],
    ['The Directive enters into force on 2024-07-16.', '2024-07-16'],
    ['Effective date: March 5, 2024', '2024-03-05'],
    ['takes effect on 1st March 2026', '2026-03-01'],
  ])('reads %j as %s', (text, date) => {
    expect(extractEffectiveDate(text)).toBe(date);
  });

  it.each([
    ['A cost-effective January 1, 2026 plan.'],
    ['Comments are due January 20, 2026.'],
    ['The status became effective in October 2025.'],
    ['effective February 30, 2026'],
    ['Published 2025-11-01.'],
  ])('finds no effective date in %j', (text) => {
    expect(extractEffectiveDate(text)).toBeUndefined();
  });
});
