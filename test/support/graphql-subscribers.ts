/**
 * Many raw graphql-transport-ws subscribers in one process, for bench/graphql.bench.ts (run as its
 * child, so the subscribers' memory and CPU are not the server's). Each subscriber is a `ws`
 * socket doing connection_init + one subscribe; per message it only stamps the arrival time
 * (performance.timeOrigin + performance.now(), comparable across processes) and keeps the text for
 * a few sockets, so the client adds as little as possible to the measured latency.
 * Parent protocol (IPC): child sends {type:'ready'} once all are subscribed, {type:'all', event}
 * when every subscriber has received its `event`-th message (0-based), and {type:'report', ...}
 * on request; the parent sends {type:'report'} and {type:'exit'}.
 */
import WebSocket from 'ws';

/** What one run of subscribers is told. */
export interface SubscriberPlan {
  readonly url: string;
  readonly apiKey: string;
  /** Subscription documents; subscriber i uses queries[i % queries.length]. */
  readonly queries: readonly string[];
  readonly count: number;
}

/** Arrival times per subscriber (ms since the epoch, fractional) and the texts of the first few. */
export interface SubscriberReport {
  readonly times: number[][];
  readonly samples: string[][];
}

const SAMPLED = 3;
const CONNECT_BATCH = 100;
const now = () => performance.timeOrigin + performance.now();

/** Connects and subscribes `plan.count` sockets, then reports arrivals to the parent over IPC. */
export async function runSubscribers(plan: SubscriberPlan, send: (message: unknown) => void): Promise<() => void> {
  const times: number[][] = [];
  const samples: string[][] = [];
  const perEvent: number[] = [];
  const sockets: WebSocket[] = [];
  const open = (i: number) => new Promise<void>((resolve, reject) => {
    const socket = new WebSocket(plan.url, 'graphql-transport-ws', { perMessageDeflate: false });
    sockets.push(socket);
    const mine: number[] = (times[i] = []);
    const sample: string[] = (samples[i] = []);
    let acked = false;
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: plan.apiKey } })));
    socket.on('message', (data) => {
      const at = now();
      if (!acked) {
        acked = true;
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: plan.queries[i % plan.queries.length] } }));
        return resolve();
      }
      const event = mine.push(at) - 1;
      if (i < SAMPLED) sample.push(String(data));
      perEvent[event] = (perEvent[event] ?? 0) + 1;
      if (perEvent[event] === plan.count) send({ type: 'all', event });
    });
    socket.on('close', (code) => (acked ? undefined : reject(new Error(`subscriber ${i} closed with ${code}`))));
    socket.on('error', reject);
  });
  for (let start = 0; start < plan.count; start += CONNECT_BATCH) {
    await Promise.all(Array.from({ length: Math.min(CONNECT_BATCH, plan.count - start) }, (_, k) => open(start + k)));
  }
  send({ type: 'ready' });
  return () => send({ type: 'report', times, samples } satisfies SubscriberReport & { type: string });
}

/** Child entry: reads the plan from argv[3] (JSON), runs until told to exit. */
export function subscriberChildMain(): void {
  const plan = JSON.parse(process.argv[3] ?? '{}') as SubscriberPlan;
  const send = (message: unknown) => process.send?.(message);
  runSubscribers(plan, send).then((report) => {
    process.on('message', (message: { type?: string }) => {
      if (message.type === 'report') report();
      if (message.type === 'exit') process.exit(0);
    });
  }).catch((error) => {
    send({ type: 'error', message: String(error) });
    process.exit(1);
  });
}
