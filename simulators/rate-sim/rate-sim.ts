import Decimal from 'decimal.js';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How a rate simulator answers (docs/providers.md § Simulators: rates):
 * - `normal`: the rates as set, timed now;
 * - `stale`: the same rates, timed `staleSeconds` ago;
 * - `skewed`: every rate `skewPercent` off (this source alone disagrees);
 * - `failing`: HTTP 503 with the source's error body;
 * - `jumping`: every rate `jumpPercent` off (set on every source: the market moved).
 */
export type RateSimMode = 'normal' | 'stale' | 'skewed' | 'failing' | 'jumping';
export const RATE_SIM_MODES: readonly RateSimMode[] = ['normal', 'stale', 'skewed', 'failing', 'jumping'];

/** A mode and its sizes; unset sizes keep their defaults (stale 3600 s, skew 10 %, jump 8 %). */
export interface RateSimSettings {
  readonly mode: RateSimMode;
  readonly staleSeconds?: number;
  readonly skewPercent?: string;
  readonly jumpPercent?: string;
}

/** A rate as the simulator answers it now: the moved rate and the time to stamp it with. */
export interface SimPrice {
  readonly rate: string;
  readonly at: Date;
}

/** State shared by a rate simulator's routes: base rates per market symbol, the mode, request counts. */
export class RateSimState {
  private settings: Required<RateSimSettings> = { mode: 'normal', staleSeconds: 3600, skewPercent: '10', jumpPercent: '8' };
  private readonly rates = new Map<string, string>();
  requests = 0;

  constructor(rates: Readonly<Record<string, string>>) {
    this.setRates(rates);
  }

  get mode(): RateSimMode {
    return this.settings.mode;
  }

  setMode(settings: RateSimSettings): void {
    this.settings = { ...this.settings, ...settings };
  }

  /** Replaces or adds base rates, by market symbol (e.g. `USDCZAR`, or `USDC:KES` for a reference source). */
  setRates(rates: Readonly<Record<string, string>>): void {
    for (const [symbol, rate] of Object.entries(rates)) this.rates.set(symbol, rate);
  }

  symbols(): string[] {
    return [...this.rates.keys()];
  }

  /** The rate of `symbol` as answered in the current mode, or undefined for an unknown symbol. */
  price(symbol: string, now = new Date()): SimPrice | undefined {
    const base = this.rates.get(symbol);
    if (base === undefined) return undefined;
    const { mode } = this.settings;
    const percent = mode === 'skewed' ? this.settings.skewPercent : mode === 'jumping' ? this.settings.jumpPercent : '0';
    const rate = new Decimal(base).times(new Decimal(1).plus(new Decimal(percent).div(100))).toString();
    const at = mode === 'stale' ? new Date(now.getTime() - this.settings.staleSeconds * 1000) : now;
    return { rate, at };
  }
}

/** A running rate simulator. */
export interface RateSimulator {
  /** Base URL to give the adapter (RATES_<SOURCE>_BASE_URL). */
  readonly url: string;
  readonly state: RateSimState;
  /** Sets the mode for later requests (see RateSimMode). */
  setMode(settings: RateSimSettings | RateSimMode): void;
  setRates(rates: Readonly<Record<string, string>>): void;
  close(): Promise<void>;
}

/** A protocol's routes: answers a request (its headers in `req`) or returns false for a path it does not know. */
export type RateRoutes = (state: RateSimState, url: URL, res: ServerResponse, req: IncomingMessage) => boolean;

/** A simulator's own controls: answers a `POST /__simulator/...` it knows (JSON `body`) or returns false. */
export type RateSimControls = (url: URL, body: unknown, res: ServerResponse) => boolean;

/**
 * Starts a rate simulator over real HTTP: `routes` speaks the source's protocol; every simulator also
 * takes `POST /__simulator/mode` (`{mode, staleSeconds?, skewPercent?, jumpPercent?}`) and
 * `POST /__simulator/rates` (`{<symbol>: "<rate>"}`), and answers 503 with `failingBody` in `failing` mode.
 */
export async function startRateSimulator(
  options: { readonly port?: number; readonly host?: string; readonly rates: Readonly<Record<string, string>> },
  routes: RateRoutes,
  failingBody: unknown,
  controls?: RateSimControls,
): Promise<RateSimulator> {
  const state = new RateSimState(options.rates);
  const server = createServer((req, res) => {
    handle(state, req, res, routes, failingBody, controls).catch((error: unknown) => send(res, 500, { error: `simulator fault: ${String(error)}` }));
  });
  const host = options.host ?? '127.0.0.1';
  server.listen(options.port ?? 0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    state,
    setMode: (settings) => state.setMode(typeof settings === 'string' ? { mode: settings } : settings),
    setRates: (rates) => state.setRates(rates),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function handle(
  state: RateSimState, req: IncomingMessage, res: ServerResponse, routes: RateRoutes, failingBody: unknown, controls: RateSimControls | undefined,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://simulator');
  const body = await readJson(req);
  if (req.method === 'POST' && url.pathname === '/__simulator/mode') {
    const settings = body as RateSimSettings | undefined;
    if (!settings || !RATE_SIM_MODES.includes(settings.mode)) return send(res, 400, { error: `mode must be one of ${RATE_SIM_MODES.join(', ')}` });
    state.setMode(settings);
    return send(res, 200, { mode: state.mode });
  }
  if (req.method === 'POST' && url.pathname === '/__simulator/rates') {
    state.setRates((body ?? {}) as Record<string, string>);
    return send(res, 200, { symbols: state.symbols() });
  }
  if (req.method === 'POST' && url.pathname.startsWith('/__simulator/') && controls?.(url, body, res)) return;
  state.requests += 1;
  if (req.method !== 'GET') return send(res, 405, { error: 'method not allowed' });
  if (state.mode === 'failing') return send(res, 503, failingBody);
  if (!routes(state, url, res, req)) send(res, 404, { error: 'not found' });
}

/** Sends a JSON body with `status`, and the `Date` header Node sets on every response. */
export function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
