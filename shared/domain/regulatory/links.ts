/** Identity of a feed item: its link made canonical, and the stable ids derived from it or from its guid. */
import { createHash } from 'node:crypto';

/** Hex characters of SHA-256 kept in an update id (64 bits: collisions are negligible at feed volumes). */
export const UPDATE_ID_HEX_CHARS = 16;

/** Query parameters that only track the click and never select a different document. */
const TRACKING_PARAM = /^(?:utm_.*|fbclid|gclid|dclid|msclkid|mc_cid|mc_eid|_hsenc|_hsmi|mkt_tok|_ga|igshid|yclid)$/i;

/** An absolute http(s) URL, resolved against `base` when relative; undefined when it is neither. */
export function absoluteHttpUrl(raw: string | undefined, base?: string): string | undefined {
  const text = raw?.trim();
  if (!text) return undefined;
  try {
    const url = base ? new URL(text, base) : new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The link as a document address: host lower-cased (URL does it), default port, fragment and tracking
 * parameters dropped, remaining parameters sorted, trailing slash of the path removed. Undefined when it is
 * not an absolute http(s) URL.
 */
export function normaliseLink(raw: string): string | undefined {
  const href = absoluteHttpUrl(raw);
  if (!href) return undefined;
  const url = new URL(href);
  url.hash = '';
  const kept = [...url.searchParams].filter(([name]) => !TRACKING_PARAM.test(name));
  kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = new URLSearchParams(kept).toString();
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}${query ? `?${query}` : ''}`;
}

function hashId(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, UPDATE_ID_HEX_CHARS);
}

/** Dedupe key of a link: scheme-blind, so the http and https forms of one page are one document. */
function linkKey(link: string): string | undefined {
  const normalised = normaliseLink(link);
  return normalised ? hashId(normalised.replace(/^http:/, 'https:')) : undefined;
}

/** Dedupe key of a guid; a guid that is a URL is keyed as a link, so `guid == link` yields one key. */
function guidKey(guid: string): string {
  return linkKey(guid) ?? hashId(`guid:${guid.trim()}`);
}

/** The update id of an item: from its normalised link when it has one, else from its guid. */
export function updateId(item: { link?: string; guid?: string }): string {
  const fromLink = item.link ? linkKey(item.link) : undefined;
  if (fromLink) return fromLink;
  if (item.guid?.trim()) return guidKey(item.guid);
  throw new RangeError('an update id needs a link or a guid');
}

/**
 * Every key under which an item counts as already seen: its link's and its guid's. A store remembers all of
 * them, so a feed that later changes an item's link (same guid), or its guid (same link), adds nothing.
 */
export function dedupeKeys(item: { link?: string; guid?: string }): string[] {
  const keys = new Set<string>();
  const fromLink = item.link ? linkKey(item.link) : undefined;
  if (fromLink) keys.add(fromLink);
  if (item.guid?.trim()) keys.add(guidKey(item.guid));
  return [...keys];
}
