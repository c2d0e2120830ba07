// Which addresses a pasted URL may reach (SSRF defence): never private, loopback, link-local, CGNAT,
// multicast, reserved or unspecified ones (IPv4-mapped and NAT64 IPv6 forms included), unless the
// operator's allow-list (URL_FETCH_ALLOW_HOSTS: host names, IPs or CIDR ranges) names them.
import { BlockList, isIP } from 'node:net';

const BLOCKED_V4: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this" network, unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];
const BLOCKED_V6: Array<[string, number]> = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated), reaches IPv4 space
  ['64:ff9b::', 96], // NAT64: would reach any IPv4 address, private ones included
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

function blockList(entries: Array<[string, number]>, family: 'ipv4' | 'ipv6', into = new BlockList()) {
  for (const [net, prefix] of entries) into.addSubnet(net, prefix, family);
  return into;
}
const BLOCKED = blockList(BLOCKED_V6, 'ipv6', blockList(BLOCKED_V4, 'ipv4'));

const family = (ip: string): 'ipv4' | 'ipv6' => (isIP(ip) === 6 ? 'ipv6' : 'ipv4');

/** An IPv6 address written with brackets in a URL host, without them. */
export const bareHost = (host: string): string => host.replace(/^\[(.*)\]$/, '$1').toLowerCase();

export interface AddressPolicy {
  /** True when the operator allowed this host name (or IP literal) as written. */
  hostAllowed(host: string): boolean;
  /** True when a connection to this IP may be made. */
  addressAllowed(ip: string): boolean;
}

/** Throws a list of problems for entries that are neither a host name, an IP nor a CIDR range. */
export function createAddressPolicy(allow: readonly string[]): AddressPolicy {
  const hosts = new Set<string>();
  const allowed = new BlockList();
  const problems: string[] = [];
  for (const raw of allow) {
    const entry = bareHost(raw.trim());
    if (!entry) continue;
    const [net, prefixText] = entry.split('/');
    if (prefixText !== undefined) {
      const prefix = Number(prefixText);
      const v = isIP(net!);
      if (!v || !Number.isInteger(prefix) || prefix < 0 || prefix > (v === 4 ? 32 : 128)) {
        problems.push(`"${raw}" is not a valid CIDR range`);
        continue;
      }
      allowed.addSubnet(net!, prefix, v === 4 ? 'ipv4' : 'ipv6');
    } else if (isIP(entry)) {
      allowed.addAddress(entry, family(entry));
    } else if (/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/.test(entry)) {
      hosts.add(entry.replace(/\.$/, ''));
    } else {
      problems.push(`"${raw}" is neither a host name, an IP address nor a CIDR range`);
    }
  }
  if (problems.length > 0) throw new Error(`URL_FETCH_ALLOW_HOSTS: ${problems.join('; ')}`);
  return {
    hostAllowed: (host) => hosts.has(bareHost(host).replace(/\.$/, '')),
    addressAllowed(ip) {
      const bare = bareHost(ip);
      if (!isIP(bare)) return false;
      if (allowed.check(bare, family(bare))) return true;
      return !BLOCKED.check(bare, family(bare));
    },
  };
}
