/**
 * The unit a per-address limit counts: an IPv4 address, or the /64 prefix of an IPv6 address. One IPv6
 * subscriber is routinely given a whole /64 (RFC 6177; SLAAC needs it), so counting single IPv6 addresses
 * would let one client multiply a per-address limit by 2^64. Addresses are parsed by ipaddr.js.
 */
import ipaddr from 'ipaddr.js';

/** `203.0.113.7` -> itself; `2001:db8:1:2:aaaa::1` -> `2001:db8:1:2::/64`; `::ffff:203.0.113.7` -> `203.0.113.7`. */
export function addressScope(address: string): string {
  const bare = address.trim().toLowerCase();
  // A zone (`fe80::1%eth0`) names the interface, not the host.
  const host = bare.split('%')[0];
  if (!ipaddr.isValid(host)) return bare || 'unknown';
  const parsed = ipaddr.parse(host);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts.slice(0, 4).map((part) => part.toString(16)).join(':')}::/64`;
}
