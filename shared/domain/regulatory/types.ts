/** Shapes shared by the regulatory-feed pipeline: configured sources, parsed items, stored updates. */

export type Region = 'EU' | 'NA' | 'SSA';
export type Priority = 'high' | 'medium' | 'low';

/** One configured feed. `jurisdiction` is an ISO 3166 code (`US`, `ZA`, `US-CA`) or `EU`. */
export interface FeedSource {
  id: string;
  name: string;
  url: string;
  region: Region;
  jurisdiction: string;
}

/** One entry of a feed, normalised across RSS 2.0, RSS 1.0 (RDF) and Atom 1.0. */
export interface FeedItem {
  /** The item's guid (RSS), rdf:about (RSS 1.0) or id (Atom); its link when it has none. */
  guid: string;
  /** Absolute http(s) address of the item, when it has one. */
  link?: string;
  title: string;
  /** Plain text: HTML stripped, entities decoded, whitespace collapsed, at most MAX_SUMMARY_CHARS. */
  summary: string;
  /** ISO 8601 instant, or undefined when the feed gives no date or one that cannot be read. */
  published?: string;
  /** The feed's own title, else the configured source name. */
  source: string;
}

/** An item left out of a parse, and why. `position` counts items from 0 in document order. */
export interface SkippedItem {
  position: number;
  title?: string;
  reason: string;
}

export type FeedFormat = 'rss2' | 'rss1' | 'atom';

export interface ParsedFeed {
  format: FeedFormat;
  /** The feed's title, when it has one. */
  title?: string;
  items: FeedItem[];
  skipped: SkippedItem[];
}

/**
 * An update as the store keeps it and `GET /api/regulatory-updates` returns it: the spec's fields
 * (id, title, summary, impact_assessment, priority, source, effective_date, document_url) plus the
 * region, jurisdiction and publication instant used to filter and sort.
 */
export interface RegulatoryUpdate {
  id: string;
  title: string;
  summary: string;
  impact_assessment: string;
  priority: Priority;
  source: string;
  /** YYYY-MM-DD. */
  effective_date: string;
  document_url: string;
  region: Region;
  jurisdiction: string;
  /** ISO 8601 instant the source published it, or null when unknown. */
  published_at: string | null;
}
