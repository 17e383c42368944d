import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import type { TargetGuard } from '../../core/webhooks/webhook-ports';

/**
 * Addresses a webhook may never reach (docs/decisions.md § Webhooks): private, loopback, link-local
 * (metadata), CGNAT, multicast, reserved; and the IPv6 ranges that carry an IPv4 address a relay or
 * the host's stack may unwrap (IPv4-compatible ::/96, IPv4-translated ::ffff:0:0:0/96, NAT64
 * 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16, Teredo 2001::/32), refused whole since the
 * embedded address cannot be trusted. IPv4-mapped addresses (::ffff:0:0/96, dotted or hex) are
 * decided by the IPv4 address they carry.
 */
const BLOCKED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32], ['fec0::', 10],
  ['::', 96], ['::ffff:0:0:0', 96], ['64:ff9b:1::', 48], ['2002::', 16], ['2001::', 32], ['100::', 64],
] as const) BLOCKED.addSubnet(net, bits, 'ipv6');

const BLOCKED_NAMES = /(^|\.)(localhost|local|internal|localdomain)$|^metadata(\.google\.internal)?$/i;

/** Why `address` (an IP literal) is refused, or undefined when it is a public address. */
export function blockedAddressReason(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return blockedAddressReason(mapped);
  return BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6') ? `${address} is a private, loopback or link-local address` : undefined;
}

/** The host of a URL without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Registration-time check (docs/decisions.md § Webhooks): refuses internal names and any host that is, or
 * resolves to, a blocked address. A name that does not resolve now is accepted: the connect-time
 * check (guardedLookup) decides when delivering.
 */
export class DnsTargetGuard implements TargetGuard {
  /** `resolve` returns a host's addresses (empty when it does not resolve); the system resolver by default. */
  constructor(private readonly resolve: (host: string) => Promise<string[]> = systemResolve) {}

  async refusal(url: URL): Promise<string | undefined> {
    const host = hostOf(url);
    if (isIP(host)) return blockedAddressReason(host);
    if (BLOCKED_NAMES.test(host.replace(/\.$/, ''))) return `${host} is an internal host name`;
    const addresses = await this.resolve(host);
    return addresses.map((a) => blockedAddressReason(a)).find((reason) => reason !== undefined);
  }
}

function systemResolve(host: string): Promise<string[]> {
  return new Promise((resolve) =>
    lookup(host, { all: true }, (error, found: LookupAddress[]) => resolve(error ? [] : found.map((a) => a.address))),
  );
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net/tls connect that refuses blocked addresses at connect time, so a name that
 * resolved to a public address at registration cannot be rebound to an internal one (DNS rebinding).
 */
export function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    const refused = addresses.map((a) => blockedAddressReason(a.address)).find((r) => r !== undefined);
    if (refused) return callback(Object.assign(new Error(`refused target: ${refused}`), { code: 'EBLOCKEDTARGET' }), '');
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
}
