import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';

/** Decides whether the hop at `index` (0: the socket's peer) is a proxy whose X-Forwarded-For counts. */
export type ProxyTrust = (address: string, index: number) => boolean;

/**
 * Compiles TRUST_PROXY (docs/decisions.md § Rate limits and abuse limits), with express's meaning of
 * its 'trust proxy' setting: `false` (default: the socket's address is the client, X-Forwarded-For
 * is ignored), `true` (trust every hop: only behind a proxy that overwrites the header), a number
 * of proxy hops to trust, or a comma-separated list of addresses, CIDR ranges and the names
 * `loopback`, `linklocal`, `uniquelocal`. Throws a TypeError for an invalid address or range.
 */
export function compileProxyTrust(setting: string): ProxyTrust {
  const value = setting.trim();
  if (value === '' || value === 'false') return () => false;
  if (value === 'true') return () => true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, index) => index < hops;
  }
  return proxyaddr.compile(value.split(',').map((part) => part.trim()));
}

/**
 * The client's address of a request (HTTP or a WebSocket upgrade): the socket's peer, or the first
 * untrusted hop of X-Forwarded-For walking back from it when `trust` allows. `unknown` when the
 * socket has already gone.
 */
export function clientAddressOf(request: IncomingMessage, trust: ProxyTrust): string {
  if (!request.socket.remoteAddress) return 'unknown';
  return proxyaddr(request, trust);
}
