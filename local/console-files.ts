/**
 * GET /console/ on the local runtime and the edge node: the console built in memory on first request
 * (console/build.ts), each file with its content type and the security headers CloudFront sends in the cloud.
 * `/console` redirects to `/console/` so the page's relative asset paths resolve.
 */
import type http from 'node:http';
import { CONSOLE_HEADERS, consoleFiles } from '../console/build';

export const CONSOLE_PREFIX = '/console';

/** Answers a console path; false when the path is not the console's. */
export async function serveConsole(method: string, pathname: string, res: http.ServerResponse): Promise<boolean> {
  if (pathname !== CONSOLE_PREFIX && !pathname.startsWith(`${CONSOLE_PREFIX}/`)) return false;
  if (method !== 'GET' && method !== 'HEAD') {
    res.writeHead(405, { 'content-type': 'application/json', allow: 'GET, HEAD' }).end('{"status":"error","error":"Method not allowed"}');
    return true;
  }
  if (pathname === CONSOLE_PREFIX) {
    res.writeHead(301, { location: `${CONSOLE_PREFIX}/` }).end();
    return true;
  }
  const name = pathname.slice(CONSOLE_PREFIX.length + 1) || 'index.html';
  const file = (await consoleFiles()).find((f) => f.name === name);
  if (!file) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"status":"error","error":"Not found"}');
    return true;
  }
  // The page is revalidated (it names the assets); the assets change only with a new build of the process.
  const cache = name === 'index.html' ? 'no-cache' : 'public, max-age=300';
  res.writeHead(200, { ...CONSOLE_HEADERS, 'content-type': file.contentType, 'content-length': String(file.body.length), 'cache-control': cache });
  res.end(method === 'HEAD' ? undefined : file.body);
  return true;
}
