/**
 * The unit a per-address limit counts: an IPv4 address, or the /64 prefix of an IPv6 address. One IPv6
 * subscriber is routinely given a whole /64 (RFC 6177; SLAAC needs it), so counting single IPv6 addresses
 * would let one client multiply a per-address limit by 2^64.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** `203.0.113.7` -> itself; `2001:db8:1:2:aaaa::1` -> `2001:db8:1:2::/64`; `::ffff:203.0.113.7` -> `203.0.113.7`. */
export function addressScope(address: string): string {
  const bare = address.trim().toLowerCase();
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return bare || 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  const groups = expandIPv6(bare);
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (zone dropped, `::` expanded, a dotted IPv4 tail as two groups). */
function expandIPv6(address: string): string[] {
  const withoutZone = address.split('%')[0];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(withoutZone);
  const hex = dotted
    ? withoutZone.slice(0, -dotted[1].length) + dotted[1].split('.').map(Number).reduce<string[]>((acc, octet, i) => {
        if (i % 2 === 0) acc.push(octet.toString(16).padStart(2, '0'));
        else acc[acc.length - 1] += octet.toString(16).padStart(2, '0');
        return acc;
      }, []).join(':')
    : withoutZone;
  const [head, tail] = hex.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail === undefined ? [] : tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  return [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailGroups];
}
