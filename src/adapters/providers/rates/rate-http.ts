import { Agent, request } from 'undici';

/** What one GET to a rate source came to: its answer (body parsed as JSON, undefined when not JSON) or why there was none. */
export type RateCall =
  | { readonly kind: 'answer'; readonly httpStatus: number; readonly date: Date | undefined; readonly body: unknown }
  | { readonly kind: 'failed'; readonly reason: string };

/**
 * A keyless JSON GET client for public rate endpoints (docs/providers.md § Rates): one keep-alive
 * pool, a connect timeout and a whole-call timeout, never a credential. Never throws for a
 * transport fault: every outcome is a `RateCall`. The response's `Date` header (RFC 9110 §6.6.1)
 * is returned for sources whose body carries no timestamp.
 */
export class RateHttpClient {
  private readonly agent: Agent;

  constructor(private readonly timeoutMs: number) {
    this.agent = new Agent({ keepAliveTimeout: 30_000, connections: 8, connect: { timeout: timeoutMs } });
  }

  /** GETs `url` and reads the answer. */
  async get(url: URL): Promise<RateCall> {
    try {
      const response = await request(url, {
        method: 'GET',
        headers: { accept: 'application/json' },
        dispatcher: this.agent,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        signal: AbortSignal.timeout(2 * this.timeoutMs),
      });
      const text = await response.body.text();
      const dateHeader = response.headers.date;
      const date = typeof dateHeader === 'string' && !Number.isNaN(Date.parse(dateHeader)) ? new Date(dateHeader) : undefined;
      return { kind: 'answer', httpStatus: response.statusCode, date, body: parseJson(text) };
    } catch (error) {
      const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
      const message = error instanceof Error ? error.message : String(error);
      return { kind: 'failed', reason: `${code ?? 'error'}: ${message}`.slice(0, 200) };
    }
  }

  /** Closes the pool; later calls fail. */
  async close(): Promise<void> {
    await this.agent.destroy();
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A positive plain decimal string (a source's price), else undefined. Pure. */
export function decimalText(value: unknown): string | undefined {
  return typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) && !/^0+(\.0+)?$/.test(value) ? value : undefined;
}
