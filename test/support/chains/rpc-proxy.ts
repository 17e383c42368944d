/**
 * A tiny JSON-RPC proxy in front of a node, for tests of what real RPC providers do: refuse wide
 * `eth_getLogs` ranges, answer the same logs twice, answer some calls with an error, hold a call
 * unanswered (before or after the node saw it). Records every request it forwards or answers.
 */
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A JSON-RPC request as received. */
export interface RpcCall {
  readonly method: string;
  readonly params: unknown[];
}

/** A request as recorded: refused (answered by the proxy) or forwarded to the node. */
export interface RecordedCall extends RpcCall {
  readonly refused: boolean;
}

/** A JSON-RPC error answer. */
export interface RpcErrorAnswer {
  readonly code: number;
  readonly message: string;
}

/** What the proxy does differently from the node; each hook may be changed while it runs. */
export interface ProxyBehaviour {
  /** Answer this error instead of forwarding the call (undefined: forward). */
  refuse?: (call: RpcCall) => RpcErrorAnswer | undefined;
  /** Change the node's result before answering it. */
  rewrite?: (call: RpcCall, result: unknown) => unknown;
  /** HTTP status for refusals (JSON-RPC errors usually travel with 200). */
  refusalStatus?: number;
  /**
   * Never answer this call: `before` it reaches the node (it is not forwarded), or `after` the node
   * answered it (forwarded, the answer kept back), as a process killed at that moment would see it.
   * `onHeld` is told once the call is held. Undefined: forward and answer.
   */
  hold?: (call: RpcCall) => 'before' | 'after' | undefined;
  onHeld?: (call: RpcCall, when: 'before' | 'after') => void;
}

/** A running proxy. */
export interface RpcProxy {
  readonly url: string;
  /** Every call received, in order. */
  readonly calls: RecordedCall[];
  behaviour: ProxyBehaviour;
  close(): Promise<void>;
}

/** The block count an `eth_getLogs` call asks for (inclusive), or undefined when it names no numeric range. */
export function logRangeSize(call: RpcCall): bigint | undefined {
  if (call.method !== 'eth_getLogs') return undefined;
  const filter = call.params[0] as { fromBlock?: string; toBlock?: string } | undefined;
  if (!filter?.fromBlock?.startsWith('0x') || !filter.toBlock?.startsWith('0x')) return undefined;
  return BigInt(filter.toBlock) - BigInt(filter.fromBlock) + 1n;
}

/**
 * Refuses `eth_getLogs` over more than `maxBlocks` blocks the way many providers do: code -32005
 * "query exceeds max block range <n>" (https://therpc.io/docs/bsc/eth_getLogs, "Errors").
 */
export function refuseLogRangesOver(maxBlocks: number, answer?: RpcErrorAnswer): ProxyBehaviour['refuse'] {
  return (call) => {
    const size = logRangeSize(call);
    return size !== undefined && size > BigInt(maxBlocks) ? answer ?? { code: -32005, message: `query exceeds max block range ${maxBlocks}` } : undefined;
  };
}

/** Answers every `eth_getLogs` with each log twice. */
export const duplicateLogs: ProxyBehaviour['rewrite'] = (call, result) =>
  call.method === 'eth_getLogs' && Array.isArray(result) ? result.flatMap((log) => [log, log]) : result;

/** Starts the proxy on a free port of 127.0.0.1, forwarding to `upstream`. */
export async function startRpcProxy(upstream: string, behaviour: ProxyBehaviour = {}): Promise<RpcProxy> {
  const calls: RecordedCall[] = [];
  const proxy = { behaviour } as { behaviour: ProxyBehaviour };
  const answer = async (request: { id?: unknown; method: string; params?: unknown[] }): Promise<{ body: unknown; refused: boolean }> => {
    const call: RpcCall = { method: request.method, params: request.params ?? [] };
    const refusal = proxy.behaviour.refuse?.(call);
    calls.push({ ...call, refused: refusal !== undefined });
    if (refusal) return { body: { jsonrpc: '2.0', id: request.id, error: refusal }, refused: true };
    const held = proxy.behaviour.hold?.(call);
    const never = () => new Promise<never>(() => undefined);
    if (held === 'before') {
      proxy.behaviour.onHeld?.(call, held);
      return never();
    }
    const forwarded = await fetch(upstream, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request),
    });
    const body = await forwarded.json() as { result?: unknown; error?: unknown };
    if (body.error === undefined && proxy.behaviour.rewrite) body.result = proxy.behaviour.rewrite(call, body.result);
    if (held === 'after') {
      proxy.behaviour.onHeld?.(call, held);
      return never();
    }
    return { body, refused: false };
  };
  const server: Server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      void (async () => {
        try {
          const parsed = JSON.parse(text) as Parameters<typeof answer>[0] | Parameters<typeof answer>[0][];
          const answers = Array.isArray(parsed) ? await Promise.all(parsed.map(answer)) : [await answer(parsed)];
          const refused = answers.some((a) => a.refused);
          const body = Array.isArray(parsed) ? answers.map((a) => a.body) : answers[0]!.body;
          res.writeHead(refused ? proxy.behaviour.refusalStatus ?? 200 : 200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        } catch (error) {
          res.writeHead(502, { 'content-type': 'text/plain' });
          res.end(String(error));
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  });
}
