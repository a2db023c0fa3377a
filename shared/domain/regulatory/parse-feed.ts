/**
 * Reads RSS 2.0, RSS 1.0 (RDF) and Atom 1.0 feeds into normalised items. Namespace prefixes are dropped
 * (`dc:date` is `date`, `content:encoded` is `encoded`, `rdf:about` is `about`), so the three formats differ
 * only in where the items sit and what their fields are called.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { parseFeedDate } from './dates';
import { FeedParseError } from './errors';
import { absoluteHttpUrl } from './links';
import { htmlToText, toSummary, truncateAtBoundary } from './text';
import type { FeedFormat, FeedItem, FeedSource, ParsedFeed, SkippedItem } from './types';

/** Longest title kept; feeds occasionally put a whole abstract in the title. */
const MAX_TITLE_CHARS = 300;
const UNTITLED = 'Untitled item';

type Node = Record<string, unknown>;

/** Elements whose content is text or (escaped, CDATA or XHTML) markup. */
const TEXT_FIELDS = ['title', 'description', 'encoded', 'summary', 'content'];

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  processEntities: true,
  htmlEntities: false,
  isArray: (name) => name === 'item' || name === 'entry' || name === 'link',
  // Text fields are kept as raw XML and read by `characterData`: Atom `type="xhtml"` content is markup, and
  // parsing it into objects would lose the order of mixed text and elements.
  stopNodes: TEXT_FIELDS.map((name) => `*.${name}`),
});

/**
 * The character data of raw XML content: CDATA sections as written, entity references elsewhere decoded
 * once (XML level). What remains may be HTML, which `htmlToText` reads.
 */
function characterData(raw: string): string {
  return raw
    .split(/(<!\[CDATA\[[\s\S]*?\]\]>)/)
    .map((part) => (part.startsWith('<![CDATA[') ? part.slice(9, -3) : decodeXmlEntities(part)))
    .join('');
}

const XML_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeXmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (whole, body: string) => {
    if (body[0] !== '#') return XML_ENTITIES[body.toLowerCase()] ?? whole;
    const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
  });
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** All text under a node, attributes excluded, in document order (covers Atom `type="xhtml"` content). */
function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(textOf).filter(Boolean).join(' ');
  if (isNode(value)) {
    return Object.entries(value)
      .filter(([key]) => !key.startsWith('@_'))
      .map(([, child]) => textOf(child))
      .filter(Boolean)
      .join(' ');
  }
  return '';
}

function first(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

function attr(value: unknown, name: string): string | undefined {
  const node = first(value);
  if (!isNode(node)) return undefined;
  const found = node[`@_${name}`];
  return typeof found === 'string' ? found : undefined;
}

/** Plain text of a text field (a stop node: raw XML). */
function fieldText(node: unknown): string {
  return htmlToText(characterData(textOf(first(node))));
}

function cleanTitle(raw: unknown): string {
  return truncateAtBoundary(fieldText(raw), MAX_TITLE_CHARS);
}

/** Atom's link for an entry: `rel="alternate"` (or no rel) preferring HTML, else the first with an href. */
function atomLink(links: unknown, base?: string): string | undefined {
  const candidates = (Array.isArray(links) ? links : [links]).filter(isNode);
  const alternates = candidates.filter((l) => (attr(l, 'rel') ?? 'alternate') === 'alternate');
  const ordered = [
    ...alternates.filter((l) => (attr(l, 'type') ?? 'text/html').includes('html')),
    ...alternates,
    ...candidates,
  ];
  for (const link of ordered) {
    const href = absoluteHttpUrl(attr(link, 'href'), base);
    if (href) return href;
  }
  return undefined;
}

/** RSS link elements: text content, or (in feeds that mix in Atom) an href attribute. */
function rssLink(links: unknown, base?: string): string | undefined {
  for (const link of Array.isArray(links) ? links : [links]) {
    const href = absoluteHttpUrl(textOf(link) || attr(link, 'href'), base);
    if (href) return href;
  }
  return undefined;
}

/** The markup of a text field, XML-level decoded; `htmlToText` makes it plain. */
function rawField(node: unknown): string {
  return characterData(textOf(first(node))).trim();
}

interface RawItem {
  guid?: string;
  link?: string;
  title: string;
  summaryHtml: string;
  date?: string;
}

function readRss2Item(node: Node, base?: string): RawItem {
  const guidText = textOf(first(node.guid)).trim() || undefined;
  const guidIsPermalink = attr(node.guid, 'isPermaLink') !== 'false';
  const link = rssLink(node.link, base) ?? (guidIsPermalink ? absoluteHttpUrl(guidText) : undefined);
  return {
    guid: guidText,
    link,
    title: cleanTitle(node.title),
    summaryHtml: rawField(node.description) || rawField(node.encoded) || rawField(node.summary),
    date: textOf(node.pubDate) || textOf(node.date) || textOf(node.published) || textOf(node.updated),
  };
}

function readRss1Item(node: Node, base?: string): RawItem {
  return {
    guid: attr(node, 'about')?.trim() || undefined,
    link: rssLink(node.link, base),
    title: cleanTitle(node.title),
    summaryHtml: rawField(node.description) || rawField(node.encoded),
    date: textOf(node.date) || textOf(node.issued) || textOf(node.modified),
  };
}

function readAtomEntry(node: Node, base?: string): RawItem {
  return {
    guid: textOf(first(node.id)).trim() || undefined,
    link: atomLink(node.link, base),
    title: cleanTitle(node.title),
    summaryHtml: rawField(node.summary) || rawField(node.content),
    date: textOf(node.published) || textOf(node.updated) || textOf(node.date),
  };
}

interface Located {
  format: FeedFormat;
  title?: string;
  base?: string;
  items: unknown[];
  read: (node: Node, base?: string) => RawItem;
}

/** Where the items of each format sit; a document that is none of the three is refused. */
function locate(doc: Node): Located {
  const roots = Object.keys(doc);
  if (isNode(doc.rss)) {
    const channel = first(doc.rss.channel);
    if (!isNode(channel)) throw new FeedParseError('RSS document has no <channel>');
    return {
      format: 'rss2',
      title: cleanTitle(channel.title) || undefined,
      base: rssLink(channel.link),
      items: (channel.item as unknown[] | undefined) ?? [],
      read: readRss2Item,
    };
  }
  if (isNode(doc.RDF)) {
    const channel = first(doc.RDF.channel);
    // RSS 1.0 puts items beside the channel; some producers nest them inside it.
    const items = (doc.RDF.item as unknown[] | undefined) ?? (isNode(channel) ? (channel.item as unknown[] | undefined) : undefined);
    if (!isNode(channel) && !items) throw new FeedParseError('RDF document has neither <channel> nor <item>: not an RSS 1.0 feed');
    return {
      format: 'rss1',
      title: isNode(channel) ? cleanTitle(channel.title) || undefined : undefined,
      base: isNode(channel) ? rssLink(channel.link) : undefined,
      items: items ?? [],
      read: readRss1Item,
    };
  }
  if (isNode(doc.feed)) {
    return {
      format: 'atom',
      title: cleanTitle(doc.feed.title) || undefined,
      base: atomLink(doc.feed.link),
      items: (doc.feed.entry as unknown[] | undefined) ?? [],
      read: readAtomEntry,
    };
  }
  if (typeof doc.rss === 'string' || typeof doc.feed === 'string') return locateEmpty(doc);
  const root = roots[0];
  throw new FeedParseError(root ? `root element <${root}> is not RSS 2.0, RSS 1.0 or Atom` : 'no root element');
}

/** `<rss/>` or `<feed></feed>`: a feed element with nothing in it has no channel to read. */
function locateEmpty(doc: Node): never {
  throw new FeedParseError(`<${typeof doc.rss === 'string' ? 'rss' : 'feed'}> element is empty`);
}

/**
 * Parses a feed body into normalised items. Throws FeedParseError for an empty body, an HTML page,
 * XML that is not well-formed, and XML that is not a feed. An item with neither a link nor a guid is left
 * out and listed in `skipped`; an item whose date cannot be read keeps `published` undefined.
 */
export function parseFeed(xml: string, source: FeedSource): ParsedFeed {
  const body = xml.replace(/^\uFEFF/, '').trim();
  if (!body) throw new FeedParseError('empty body', source.id);
  if (/^(?:<!doctype\s+html|<html[\s>])/i.test(body)) throw new FeedParseError('received an HTML page, not a feed', source.id);
  if (!body.startsWith('<')) throw new FeedParseError('body is not XML', source.id);

  const validation = XMLValidator.validate(body);
  if (validation !== true) {
    const { msg, line } = validation.err;
    throw new FeedParseError(`not well-formed XML (line ${line}): ${msg}`, source.id);
  }

  let located: Located;
  try {
    located = locate(parser.parse(body) as Node);
  } catch (err) {
    if (err instanceof FeedParseError) throw new FeedParseError(err.reason, source.id);
    throw new FeedParseError(`XML could not be read: ${(err as Error).message}`, source.id);
  }

  const feedSource = located.title ?? source.name;
  const items: FeedItem[] = [];
  const skipped: SkippedItem[] = [];
  located.items.forEach((node, position) => {
    const raw = isNode(node) ? located.read(node, located.base) : undefined;
    if (!raw || (!raw.link && !raw.guid)) {
      skipped.push({ position, ...(raw?.title ? { title: raw.title } : {}), reason: 'item has neither a link nor a guid' });
      return;
    }
    const summary = toSummary(raw.summaryHtml);
    items.push({
      guid: raw.guid ?? raw.link!,
      ...(raw.link ? { link: raw.link } : {}),
      title: raw.title || (summary ? truncateAtBoundary(summary, 120) : UNTITLED),
      summary,
      published: parseFeedDate(raw.date),
      source: feedSource,
    });
  });
  return { format: located.format, ...(located.title ? { title: located.title } : {}), items, skipped };
}
