import { Counter, type Registry } from 'prom-client';

/**
 * What a chain adapter reports about each RPC endpoint it calls (docs/chains.md § Metrics): one
 * observation per request sent to one endpoint, with its outcome. A request that fails over to the
 * next endpoint is one error on the first and one request on the next.
 */
export interface RpcEndpointMetrics {
  /**
   * Counts one request. `chain` is `BSC` or `SOLANA`; `endpoint` is the endpoint's label (its host,
   * never its path or query, which may carry an API key: see `endpointLabels`); `method` the
   * JSON-RPC method; `ok` false for any error (transport, timeout, or an error answer).
   */
  requested(chain: string, endpoint: string, method: string, ok: boolean): void;
}

/**
 * The Prometheus counters behind `RpcEndpointMetrics`, registered on the registry given (the
 * service's `Metrics.registry`): `chain_rpc_requests_total` and `chain_rpc_errors_total`, labelled
 * by chain, endpoint and method. Per process: sum them over replicas.
 */
export class ChainRpcMetrics implements RpcEndpointMetrics {
  private readonly requests: Counter<'chain' | 'endpoint' | 'method'>;
  private readonly errors: Counter<'chain' | 'endpoint' | 'method'>;

  constructor(registry: Registry) {
    this.requests = new Counter({
      name: 'chain_rpc_requests_total', help: 'JSON-RPC requests sent to a chain RPC endpoint, by chain, endpoint (host) and method',
      labelNames: ['chain', 'endpoint', 'method'], registers: [registry],
    });
    this.errors = new Counter({
      name: 'chain_rpc_errors_total', help: 'JSON-RPC requests to a chain RPC endpoint that failed (transport, timeout or error answer), by chain, endpoint (host) and method',
      labelNames: ['chain', 'endpoint', 'method'], registers: [registry],
    });
  }

  requested(chain: string, endpoint: string, method: string, ok: boolean): void {
    this.requests.inc({ chain, endpoint, method });
    if (!ok) this.errors.inc({ chain, endpoint, method });
  }
}

/**
 * Metric and log labels for RPC URLs: the host (with its port), never the path, query or user
 * info, which providers use for API keys. Two URLs on one host get `#2`, `#3`… after the host in
 * list order, so each endpoint keeps a label of its own. Pure; the URLs must parse.
 */
export function endpointLabels(urls: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return urls.map((url) => {
    const host = new URL(url).host;
    const count = (seen.get(host) ?? 0) + 1;
    seen.set(host, count);
    return count === 1 ? host : `${host}#${count}`;
  });
}
