/** Dates in feeds: publication instants (RFC 822 in RSS 2.0, ISO 8601 in Atom and Dublin Core) and effective dates found in text. */

const EARLIEST_YEAR = 1900;
const LATEST_YEAR = 2200;

/**
 * ISO instant of a feed date, or undefined when it cannot be read. Accepts RFC 822/1123 (`Tue, 05 Mar 2024
 * 09:00:00 -0500`, named US zones included) and ISO 8601; a string without a four-digit year is refused,
 * because `Date` reads bare numbers as years.
 */
export function parseFeedDate(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const text = raw.trim();
  if (!/\d{4}/.test(text)) return undefined;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return undefined;
  const year = new Date(ms).getUTCFullYear();
  if (year < EARLIEST_YEAR || year > LATEST_YEAR) return undefined;
  return new Date(ms).toISOString();
}

/** The UTC calendar date (YYYY-MM-DD) of an ISO instant. */
export function dateOf(iso: string): string {
  return iso.slice(0, 10);
}

const MONTHS: Record<string, number> = {
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6,
  jul: 7, july: 7, aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10, nov: 11,
  november: 11, dec: 12, december: 12,
};

const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
const YEAR = '(\\d{4})';
/** `2026-01-01`, `January 1, 2026` / `Jan. 1 2026`, `1 July 2025` / `1st of July, 2025`. */
const DATE = `(?:${YEAR}-(\\d{2})-(\\d{2})|${MONTH}\\s+${DAY},?\\s+${YEAR}|${DAY}\\s+(?:of\\s+)?${MONTH},?\\s+${YEAR})`;

/**
 * Phrases after which a date is the date a measure takes effect. "cost-effective" and "effectiveness"
 * are not triggers; "effective" must stand alone.
 */
const TRIGGER =
  '(?<![\\w-])(?:effective(?:\\s+date)?|takes?\\s+effect|took\\s+effect|with\\s+effect\\s+from|(?:comes?|came|enters?|entered|entry)\\s+into\\s+(?:force|operation|effect)|commencement\\s+date|commences?|in\\s+force\\s+(?:from|on|since)|appl(?:ies|y)\\s+from|applicable\\s+from)';
const FILLER = '(?:[\\s:,–—-]+|\\s+(?:on|as\\s+of|from|is|of|will\\s+be|was|the)\\b)*';

const EFFECTIVE = new RegExp(`${TRIGGER}${FILLER}\\s*${DATE}`, 'gi');

/** A calendar date as YYYY-MM-DD, or undefined when it does not exist (30 February). */
function calendarDate(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  if (year < EARLIEST_YEAR || year > LATEST_YEAR) return undefined;
  return date.toISOString().slice(0, 10);
}

/**
 * The first effective date the text states ("effective January 1, 2026", "with effect from 1 July 2025",
 * "enters into force on 2024-07-16"), as YYYY-MM-DD; undefined when it states none.
 */
export function extractEffectiveDate(text: string): string | undefined {
  for (const m of text.matchAll(EFFECTIVE)) {
    const [, isoY, isoM, isoD, mdyMonth, mdyDay, mdyYear, dmyDay, dmyMonth, dmyYear] = m;
    const found = isoY
      ? calendarDate(Number(isoY), Number(isoM), Number(isoD))
      : mdyMonth
        ? calendarDate(Number(mdyYear), MONTHS[mdyMonth.toLowerCase().replace('.', '')], Number(mdyDay))
        : calendarDate(Number(dmyYear), MONTHS[dmyMonth.toLowerCase().replace('.', '')], Number(dmyDay));
    if (found) return found;
  }
  return undefined;
}
