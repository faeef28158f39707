import { BlockList, isIP } from 'node:net';

/**
 * Addresses an image fetch must never reach: this machine, private networks, link-local (cloud metadata
 * services live at 169.254.169.254), carrier-grade NAT, multicast and reserved ranges (IANA special-purpose
 * registries). IPv4-mapped IPv6 addresses are judged by their IPv4 address.
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

/** True for an address on the public internet; false for anything else, including text that is no address. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  // BlockList matches an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, `::ffff:7f00:1`) against the IPv4 rules.
  return !NOT_PUBLIC.check(address, family === 6 ? 'ipv6' : 'ipv4');
}
