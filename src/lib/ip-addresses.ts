// Which IP addresses are loopback, and which a server reachable from other machines must not connect to on a
// caller's behalf (loopback, link-local, private and the like): the sandbox's publish relay, listening beyond
// loopback, refuses them (src/http/address-guard.ts). A leaf module.
import { BlockList, isIP } from 'node:net';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const notPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 included (Linux connects it to itself)
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast included
] as const) {
  notPublic.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated): ::7f00:1 names 127.0.0.1
  ['64:ff9b::', 96], // NAT64: a translator on the path forwards 64:ff9b::a00:5 to 10.0.0.5
  ['64:ff9b:1::', 48], // local-use NAT64, the same through a private translator
  ['2002::', 16], // 6to4: a relay forwards 2002:0a00:0005:: to the IPv4 address it embeds (10.0.0.5)
  ['2001::', 32], // Teredo: a relay forwards to the IPv4 address it embeds (bits inverted)
  ['fc00::', 7], // unique local (private)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still private)
  ['ff00::', 8], // multicast
] as const) {
  notPublic.addSubnet(network, prefix, 'ipv6');
}

const family = (address: string): 'ipv4' | 'ipv6' => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** 127.0.0.0/8 or ::1, IPv4-mapped forms included (BlockList matches IPv4 rules against ::ffff:a.b.c.d). */
export function isLoopbackAddress(address: string): boolean {
  return isIP(address) !== 0 && loopback.check(address, family(address));
}

/**
 * Loopback, link-local, private, unspecified, multicast or reserved, in IPv4, IPv6 or IPv4-mapped form. Not
 * an address (a name) is false: resolve it and check what it resolves to.
 */
export function isPrivateAddress(address: string): boolean {
  return isIP(address) !== 0 && notPublic.check(address, family(address));
}
