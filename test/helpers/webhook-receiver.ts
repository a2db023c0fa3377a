/**
 * A webhook receiver for tests: one HTTP server on 127.0.0.1 and a free port. Each test takes its own path
 * and says how that path answers its n-th request (a status, or `hang` to never answer).
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

type Answer = number | 'hang';

export interface Receiver {
  /** A fresh path on the receiver; `answer(n)` is the reply to its n-th request (1 is the first); 200 by default. */
  endpoint(answer?: (n: number) => Answer): { url: string; hits: () => Hit[] };
  /** Resolves with the first `count` requests of a URL, or rejects after `ms`. */
  waitFor(url: string, count: number, ms?: number): Promise<Hit[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const hits: Hit[] = [];
  const answers = new Map<string, (n: number) => Answer>();
  let paths = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      hits.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const answer = (answers.get(path) ?? (() => 200))(hits.filter((h) => h.path === path).length);
      if (answer === 'hang') return;
      res.writeHead(answer, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const hitsOf = (url: string) => hits.filter((h) => base + h.path === url);
  return {
    endpoint(answer) {
      const path = `/hook/${++paths}`;
      if (answer) answers.set(path, answer);
      return { url: base + path, hits: () => hitsOf(base + path) };
    },
    async waitFor(url, count, ms = 15_000) {
      const end = Date.now() + ms;
      while (hitsOf(url).length < count) {
        if (Date.now() > end) throw new Error(`${url} received ${hitsOf(url).length} of ${count} requests in ${ms} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return hitsOf(url).slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
