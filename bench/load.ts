/**
 * Load generator for bench/run.ts, in its own process so it does not share the servers' event loop.
 * argv: <url> <connections> <seconds> [x-api-key]; prints autocannon's result as JSON.
 */
import autocannon from 'autocannon';

const [url, connections, seconds, key] = process.argv.slice(2);
const result = await autocannon({
  url,
  connections: Number(connections),
  duration: Number(seconds),
  headers: key ? { 'x-api-key': key } : {},
});
process.stdout.write(JSON.stringify(result));
