import { FeedParseError } from '../../../shared/domain/regulatory/errors';
import { parseFeed } from '../../../shared/domain/regulatory/parse-feed';
import { MAX_SUMMARY_CHARS } from '../../../shared/domain/regulatory/text';
import { commission, feedFixture, ferc, regulator } from './helpers';

describe('parseFeed: RSS 2.0 (Federal Register)', () => {
  // Prepare / Act
  const feed = parseFeed(feedFixture('federal-register-ferc.rss'), ferc);

  it('reads every item with its guid, link and RFC 822 date as an ISO instant', () => {
    expect(feed.format).toBe('rss2');
    expect(feed.items).toHaveLength(4);
    expect(feed.skipped).toEqual([]);
    const [rule] = feed.items;
    expect(rule.guid).toBe('https://www.federalregister.gov/documents/2025/10/31/2025-19876/improvements-to-generator-interconnection-procedures-and-agreements');
    expect(rule.link).toContain('?utm_source=federalregister.gov&utm_medium=rss');
    expect(rule.published).toBe('2025-10-31T08:00:00.000Z');
  });

  it('strips the CDATA HTML of the description and decodes its entities', () => {
    expect(feed.items[0].summary).toBe(
      'Final rule. The Federal Energy Regulatory Commission (Commission) is revising its pro forma Large Generator Interconnection Procedures so that transmission providers study interconnection requests in clusters & meet firm study deadlines. This rule is effective January 1, 2026.',
    );
    expect(feed.items[2].summary).toBe('Take notice that the Commission received the following electric filings: Docket Numbers ER26-301-000. Applicants: Example Solar LLC.');
    expect(feed.items[3].summary).toContain('the Commission’s regulations');
  });

  it('decodes entities in titles and names the feed by its own title', () => {
    expect(feed.items[3].title).toBe('Sunrise Storage, LLC & Mesa Wind, LLC; Notice of Effectiveness of Exempt Wholesale Generator Status');
    expect(feed.title).toBe('Federal Register: Federal Energy Regulatory Commission');
    expect(feed.items.every((item) => item.source === 'Federal Register: Federal Energy Regulatory Commission')).toBe(true);
  });
});

describe('parseFeed: Atom 1.0 (Commission / EUR-Lex)', () => {
  const feed = parseFeed(feedFixture('commission-energy.atom'), commission);

  it('takes the alternate link, the id as guid and published before updated', () => {
    expect(feed.format).toBe('atom');
    expect(feed.items).toHaveLength(3);
    expect(feed.items[0]).toMatchObject({
      guid: 'urn:uuid:6f1c1a52-1d7b-4c4e-9a0e-3d2b7c1f0a01',
      link: 'https://energy.ec.europa.eu/news/commission-adopts-network-code-demand-response-2025-11-10_en',
      published: '2025-11-10T08:00:00.000Z',
    });
    expect(feed.items[1].published).toBe('2025-11-03T12:00:00.000Z');
  });

  it('reads escaped HTML titles and summaries, and XHTML content in document order', () => {
    expect(feed.items[0].title).toBe('Commission adopts network code on demand response & flexibility');
    expect(feed.items[0].summary).toBe(
      'The Commission has adopted a network code on demand response. It applies with effect from 1 July 2026 and lets aggregators of batteries and heat pumps sell flexibility to system operators.',
    );
    expect(feed.items[1].summary).toBe('The Commission invites comments on draft guidance to speed up grid connection. Deadline for replies: 15 January 2026.');
    expect(feed.items[2].summary).toBe('Remarks on the state of Europe’s grids.');
  });
});

describe('parseFeed: RSS 1.0 (RDF)', () => {
  const feed = parseFeed(feedFixture('regulator-news.rdf'), regulator);

  it('reads items beside the channel, rdf:about as guid and dc:date', () => {
    expect(feed.format).toBe('rss1');
    expect(feed.title).toBe('Energy Regulator News');
    expect(feed.items.map((i) => i.guid)).toEqual([
      'https://regulator.example.org/news/net-metering-tariff-2026',
      'https://regulator.example.org/news/annual-report',
    ]);
    expect(feed.items[0].published).toBe('2026-01-15T08:00:00.000Z');
    expect(feed.items[1].summary).toBe('The regulator’s annual report is now available.');
  });

  it('resolves a relative link against the channel link', () => {
    expect(feed.items[1].link).toBe('https://regulator.example.org/news/annual-report');
  });
});

describe('parseFeed: items it cannot identify, dates it cannot read', () => {
  const feed = parseFeed(feedFixture('items-without-identity.rss'), regulator);

  it('skips items with neither link nor guid and says why', () => {
    expect(feed.items.map((i) => i.title)).toEqual(['Grid code amendment gazetted', 'Guid-only notice']);
    expect(feed.skipped).toEqual([
      { position: 0, title: 'Notice with no address at all', reason: 'item has neither a link nor a guid' },
      { position: 3, reason: 'item has neither a link nor a guid' },
    ]);
  });

  it('keeps an item whose date cannot be read, without a date', () => {
    expect(feed.items[0].link).toBe('https://notices.example.org/grid-code-amendment');
    expect(feed.items[0].published).toBeUndefined();
  });

  it('keeps a guid-only item: the guid is its identity, it has no link', () => {
    expect(feed.items[1]).toMatchObject({ guid: 'notice-2025-117', published: '2025-11-04T09:30:00.000Z' });
    expect(feed.items[1].link).toBeUndefined();
  });
});

describe('parseFeed: bodies that are not feeds', () => {
  it.each([
    ['truncated.rss', /not well-formed XML \(line 1\)/],
    ['error-page.html', /received an HTML page, not a feed/],
    ['empty.xml', /empty body/],
    ['not-a-feed.xml', /root element <sitemap> is not RSS 2.0, RSS 1.0 or Atom/],
  ])('refuses %s with a FeedParseError naming the feed and the reason', (file, reason) => {
    const act = () => parseFeed(feedFixture(file), ferc);
    expect(act).toThrow(FeedParseError);
    expect(act).toThrow(reason);
    expect(act).toThrow(/^Feed federal-register-ferc could not be parsed: /);
  });

  it('refuses plain text and a JSON error body', () => {
    expect(() => parseFeed('Service temporarily unavailable', ferc)).toThrow('body is not XML');
    expect(() => parseFeed('   \n ', ferc)).toThrow('empty body');
  });

  it('refuses an RSS element without a channel', () => {
    expect(() => parseFeed('<rss version="2.0"><foo/></rss>', ferc)).toThrow('RSS document has no <channel>');
  });
});

describe('parseFeed: summaries and sources', () => {
  const wrap = (description: string, channelTitle = '') =>
    `<rss version="2.0"><channel>${channelTitle}<item><link>https://example.org/a</link><title>T</title><description><![CDATA[${description}]]></description></item></channel></rss>`;

  it('cuts a long summary at a sentence boundary within the limit', () => {
    const sentence = 'The Commission amends its interconnection procedures for large generators. ';
    const summary = parseFeed(wrap(`<p>${sentence.repeat(20)}</p>`), ferc).items[0].summary;
    expect(summary.length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS);
    expect(summary.length).toBeGreaterThan(MAX_SUMMARY_CHARS / 2);
    expect(summary.endsWith('large generators.')).toBe(true);
  });

  it('cuts at a word boundary with an ellipsis when no sentence ends late enough', () => {
    const summary = parseFeed(wrap('word '.repeat(200)), ferc).items[0].summary;
    expect(summary.length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS);
    expect(summary).toMatch(/^(word )+word…$/);
  });

  it('drops scripts and collapses whitespace', () => {
    const summary = parseFeed(wrap('<script>alert(1)</script><p>Tariff\n\n   change&nbsp;&ndash; approved</p>'), ferc).items[0].summary;
    expect(summary).toBe('Tariff change – approved');
  });

  it('falls back to the configured name when the feed has no title', () => {
    expect(parseFeed(wrap('x'), ferc).items[0].source).toBe('Federal Register: FERC (configured)');
    expect(parseFeed(wrap('x', '<title>Own title</title>'), ferc).items[0].source).toBe('Own title');
  });
});
