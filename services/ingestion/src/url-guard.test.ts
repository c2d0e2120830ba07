import { describe, expect, it } from 'vitest';
import { createAddressPolicy } from './url-guard.ts';

describe('address policy for pasted URLs', () => {
  const policy = createAddressPolicy([]);

  it('refuses private, loopback, link-local, CGNAT, multicast and unspecified IPv4 addresses', () => {
    for (const ip of [
      '127.0.0.1',
      '127.8.9.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
    ]) {
      expect(policy.addressAllowed(ip), ip).toBe(false);
    }
  });

  it('refuses the same in IPv6, IPv4-mapped and NAT64 forms', () => {
    for (const ip of [
      '::1',
      '[::1]',
      '::',
      'fe80::1',
      'fd00::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:169.254.169.254',
      '::ffff:10.0.0.1',
      '64:ff9b::a9fe:a9fe',
    ]) {
      expect(policy.addressAllowed(ip), ip).toBe(false);
    }
  });

  it('allows public addresses and refuses things that are not addresses', () => {
    expect(policy.addressAllowed('93.184.216.34')).toBe(true);
    expect(policy.addressAllowed('2606:2800:220:1:248:1893:25c8:1946')).toBe(true);
    expect(policy.addressAllowed('::ffff:8.8.8.8')).toBe(true);
    expect(policy.addressAllowed('example.com')).toBe(false);
  });

  it('lets an operator allow hosts, single addresses and CIDR ranges, and nothing more', () => {
    const p = createAddressPolicy(['intranet.example', '127.0.0.2', '10.20.0.0/16', '[fd00::5]']);
    expect(p.hostAllowed('intranet.example')).toBe(true);
    expect(p.hostAllowed('INTRANET.example.')).toBe(true);
    expect(p.hostAllowed('other.example')).toBe(false);
    expect(p.addressAllowed('127.0.0.2')).toBe(true);
    expect(p.addressAllowed('127.0.0.1')).toBe(false);
    expect(p.addressAllowed('10.20.3.4')).toBe(true);
    expect(p.addressAllowed('10.21.3.4')).toBe(false);
    expect(p.addressAllowed('fd00::5')).toBe(true);
  });

  it('lists every malformed allow-list entry at once', () => {
    expect(() => createAddressPolicy(['10.0.0.0/99', 'bad host!', 'ok.example'])).toThrow(
      /"10\.0\.0\.0\/99" is not a valid CIDR range; "bad host!" is neither/,
    );
  });
});
