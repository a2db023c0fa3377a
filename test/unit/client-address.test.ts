import { addressScope } from '../../shared/domain/accounts/client-address';

describe('addressScope', () => {
  it('counts an IPv4 address as itself, also when it arrives IPv4-mapped', () => {
    expect(addressScope('203.0.113.7')).toBe('203.0.113.7');
    expect(addressScope('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressScope('::FFFF:127.0.0.1')).toBe('127.0.0.1');
  });

  it('counts every address of one IPv6 /64 as one, however it is written', () => {
    const scope = '2001:db8:1:2::/64';
    expect(addressScope('2001:db8:1:2::1')).toBe(scope);
    expect(addressScope('2001:0DB8:0001:0002:aaaa:bbbb:cccc:dddd')).toBe(scope);
    expect(addressScope('2001:db8:1:2:ffff::')).toBe(scope);
    expect(addressScope('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  });

  it('expands a compressed prefix and an embedded IPv4 tail', () => {
    expect(addressScope('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressScope('::1')).toBe('0:0:0:0::/64');
    expect(addressScope('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
    expect(addressScope('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('keeps anything that is not an address as it came, and names an empty one', () => {
    expect(addressScope('unknown')).toBe('unknown');
    expect(addressScope('')).toBe('unknown');
  });
});
