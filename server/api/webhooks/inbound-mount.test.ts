import { describe, expect, it } from 'vitest';
import { attemptKey } from './inbound-mount';

describe('attemptKey: the client a failed token attempt counts against', () => {
  it('counts every loopback address, IPv4-mapped or not, as one client', () => {
    expect(['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.9'].map(attemptKey)).toEqual(['loopback', 'loopback', 'loopback', 'loopback']);
  });

  it('counts an IPv4 address as itself, also when mapped into IPv6', () => {
    expect(attemptKey('192.0.2.7')).toBe('192.0.2.7');
    expect(attemptKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
  });

  it('counts IPv6 addresses by their /56 network', () => {
    const a = attemptKey('2001:db8:abcd:12ff:1::1');
    expect(a).toBe('2001:db8:abcd:1200::/56');
    expect(attemptKey('2001:db8:abcd:1234:ffff::9')).toBe(a);
    expect(attemptKey('2001:db8:abcd:1300::1')).not.toBe(a);
  });

  it('names an unknown address', () => {
    expect(attemptKey(undefined)).toBe('unknown');
  });
});
