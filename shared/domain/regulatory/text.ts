/** Turning feed HTML into the short plain text an update carries. */

/** Longest summary kept, in characters; longer text is cut at a sentence, else a word, boundary. */
export const MAX_SUMMARY_CHARS = 600;

/** A sentence boundary this far into the limit or later is preferred to a word boundary. */
const MIN_SENTENCE_CUT = 0.5;

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—', hellip: '…',
  lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»', bull: '•', middot: '·',
  sect: '§', para: '¶', copy: '©', reg: '®', trade: '™', deg: '°', euro: '€', pound: '£', yen: '¥',
  cent: '¢', times: '×', divide: '÷', frac12: '½', frac14: '¼', frac34: '¾', shy: '',
  aacute: 'á', eacute: 'é', iacute: 'í', oacute: 'ó', uacute: 'ú', agrave: 'à', egrave: 'è', ograve: 'ò',
  acirc: 'â', ecirc: 'ê', ocirc: 'ô', auml: 'ä', euml: 'ë', iuml: 'ï', ouml: 'ö', uuml: 'ü', szlig: 'ß',
  ccedil: 'ç', ntilde: 'ñ', Aacute: 'Á', Eacute: 'É', Oacute: 'Ó', Auml: 'Ä', Ouml: 'Ö', Uuml: 'Ü',
};

/** Decodes numeric (`&#8217;`, `&#x2019;`) and common named HTML entities; unknown ones stay as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body] ?? NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/** Plain text of an HTML fragment: scripts, styles and comments dropped, tags become spaces, entities decoded, whitespace collapsed. */
export function htmlToText(html: string): string {
  const withoutTags = html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
    .replace(/<\/?[a-z][^>]*>/gi, ' ');
  return collapseWhitespace(decodeEntities(withoutTags));
}

export function collapseWhitespace(text: string): string {
  return text.replace(/[\s\u00a0\u200b]+/g, ' ').trim();
}

/**
 * Text of at most `limit` characters: whole when it fits, else cut after the last sentence that ends in
 * the second half of the limit, else at the last word boundary with an ellipsis.
 */
export function truncateAtBoundary(text: string, limit = MAX_SUMMARY_CHARS): string {
  if (text.length <= limit) return text;
  const window = text.slice(0, limit);
  let sentenceEnd = -1;
  for (const match of window.matchAll(/[.!?](?=\s|$)/g)) sentenceEnd = match.index;
  if (sentenceEnd >= limit * MIN_SENTENCE_CUT) return window.slice(0, sentenceEnd + 1);
  const wordWindow = text.slice(0, limit - 1);
  const lastSpace = wordWindow.lastIndexOf(' ');
  const cut = lastSpace > 0 ? wordWindow.slice(0, lastSpace) : wordWindow;
  return `${cut.replace(/[\s,;:–—-]+$/, '')}…`;
}

/** A feed's HTML or text field as a summary. */
export function toSummary(html: string): string {
  return truncateAtBoundary(htmlToText(html));
}
