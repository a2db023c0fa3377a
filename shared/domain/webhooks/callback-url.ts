/**
 * Which URLs a webhook or order-tracking callback may point at. Deliveries are POSTs made by the service,
 * so a callback must not reach into the network the service runs in (server-side request forgery):
 * `https` only, and no loopback, private, link-local or otherwise special address, whether written as a
 * literal or resolved from the host name at delivery. `loopback` relaxes this for development and tests:
 * loopback hosts are allowed, over http too. Address ranges are classified by ipaddr.js.
 */
import ipaddr from 'ipaddr.js';

export type CallbackPolicy = 'public' | 'loopback';

const isLoopbackName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/** A URL hostname (IPv6 in brackets or not) that names this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return isLoopbackName(host) || (ipaddr.isValid(host) && ipaddr.parse(host).range() === 'loopback');
}

/** Why an address may not receive callbacks, or null when it may. */
export function addressProblem(address: string, policy: CallbackPolicy): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === 'unicast') return null;
  if (range === 'loopback' && policy === 'loopback') return null;
  return `${parsed.toString()} is a ${range} address`;
}

/** Why a callback URL is refused, or null when it is acceptable. */
/** Longest callback URL accepted: browsers and proxies agree on about 2,000 characters, and it is stored on every record. */
export const MAX_CALLBACK_URL_LENGTH = 2048;

export function callbackUrlProblem(text: string, policy: CallbackPolicy): string | null {
  if (text.length > MAX_CALLBACK_URL_LENGTH) return `longer than ${MAX_CALLBACK_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `scheme ${url.protocol} is not https`;
  if (!url.hostname) return 'no host';
  if (url.username || url.password) return 'credentials in the URL are not accepted';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = ipaddr.isValid(host);
  const loopback = isLoopbackHost(host);
  if (url.protocol === 'http:' && !(policy === 'loopback' && loopback)) return 'https is required';
  if (isLoopbackName(host)) return policy === 'loopback' ? null : `${host} is a loopback host`;
  return literal ? addressProblem(host, policy) : null;
}
