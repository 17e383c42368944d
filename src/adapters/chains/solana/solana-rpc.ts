import { createDefaultRpcTransport, createSolanaRpcFromTransport, type Rpc, type RpcTransport, type SolanaRpcApi } from '@solana/kit';
import { endpointLabels, type RpcEndpointMetrics } from '../rpc-endpoint-metrics';
import type { SolanaReaderConfig } from './solana-config';

/**
 * A @solana/kit RPC client over every URL of `config.rpcUrls`, in order, through a composed
 * failover transport (docs/chains.md § Solana reader): a request goes to the first endpoint and,
 * when it fails (no answer, an HTTP error, `rpcTimeoutMs` passed, or a JSON-RPC error answer), to
 * the next. When every endpoint fails, the last error answer is returned (kit turns it into a
 * SolanaError) or the last transport error thrown. No endpoint retries on its own: the watcher's
 * next pass asks again. Every attempt is counted in `metrics` under the endpoint's host
 * (`endpointLabels`), chain `SOLANA`, with the JSON-RPC method.
 * Transports: https://github.com/anza-xyz/kit/tree/main/packages/rpc-transport-http
 */
export function solanaRpc(config: Pick<SolanaReaderConfig, 'rpcUrls' | 'rpcTimeoutMs'>, metrics: RpcEndpointMetrics): Rpc<SolanaRpcApi> {
  const labels = endpointLabels(config.rpcUrls);
  const endpoints = config.rpcUrls.map((url, i) => ({ label: labels[i]!, transport: createDefaultRpcTransport({ url }) as RpcTransport }));
  const failover: RpcTransport = async <T>({ payload, signal }: { payload: unknown; signal?: AbortSignal }) => {
    const method = String((payload as { method?: unknown } | null)?.method ?? 'unknown');
    let lastAnswer: Awaited<ReturnType<RpcTransport>> | undefined;
    let lastError: unknown;
    for (const { label, transport } of endpoints) {
      const timeout = AbortSignal.timeout(config.rpcTimeoutMs);
      try {
        const answer = await transport<T>({ payload, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
        const failed = (answer as { error?: unknown } | null)?.error != null;
        metrics.requested('SOLANA', label, method, !failed);
        if (!failed) return answer;
        lastAnswer = answer;
      } catch (error) {
        metrics.requested('SOLANA', label, method, false);
        if (signal?.aborted) throw error;
        lastError = error;
      }
    }
    if (lastAnswer !== undefined) return lastAnswer as never;
    throw lastError;
  };
  return createSolanaRpcFromTransport(failover);
}
