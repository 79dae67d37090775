import { describe, expect, it } from 'vitest';
import { isNewDevice, networkOf } from './new-device.js';

describe('new-device notices', () => {
  it('name the network of an address: IPv4 /24, IPv6 /48, IPv4-mapped as IPv4', () => {
    expect(networkOf('203.0.113.45')).toBe('203.0.113.0/24');
    expect(networkOf('::ffff:198.51.100.7')).toBe('198.51.100.0/24');
    expect(networkOf('2001:db8:abcd:12::1')).toBe('2001:db8:abcd::/48');
    expect(networkOf('2001:db8::1')).toBe('2001:db8:0::/48');
    expect([networkOf(null), networkOf('not-an-ip')]).toEqual([null, null]);
  });

  it('a sign-in is new unless the same browser signed in from the same network before; the first is not announced', () => {
    const seen = [{ ip_address: '198.51.100.7', user_agent: 'Firefox/120' }];
    expect(isNewDevice([], { ip: '203.0.113.1', userAgent: 'Firefox/120' })).toBe(false);
    expect(isNewDevice(seen, { ip: '198.51.100.99', userAgent: 'Firefox/120' })).toBe(false);
    expect(isNewDevice(seen, { ip: '203.0.113.1', userAgent: 'Firefox/120' })).toBe(true);
    expect(isNewDevice(seen, { ip: '198.51.100.7', userAgent: 'Chrome/131' })).toBe(true);
  });
});
