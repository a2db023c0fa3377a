/** Synthetic RSS 2.0 feeds of any size, for the regulatory pull's caps. */

const DAY_MS = 86_400_000;

/** Item `n`'s publication instant: item 0 on 2025-01-01, each next one a day later. */
export const publishedOn = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * DAY_MS);

export function rssItem(n: number): string {
  const link = `https://regulator.example.org/notices/${n}`;
  return (
    `<item><title>Notice ${n} on interconnection procedures</title><link>${link}</link><guid>${link}</guid>` +
    `<pubDate>${publishedOn(n).toUTCString()}</pubDate><description>Notice ${n} of the commission.</description></item>`
  );
}

export const RSS_HEAD = '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Regulator notices</title><link>https://regulator.example.org/</link>';
export const RSS_TAIL = '</channel></rss>';

/** An RSS document of the items numbered `numbers`, in that document order. */
export const rssFeed = (numbers: readonly number[]) => RSS_HEAD + numbers.map(rssItem).join('') + RSS_TAIL;
