import { Agent, request } from 'undici';

/**
 * What one GET to a rate source came to: its answer (body parsed as JSON, undefined when not JSON;
 * `text` the body as received, for sources whose prices are JSON numbers: see `numbersAsText`) or
 * why there was none.
 */
export type RateCall =
  | { readonly kind: 'answer'; readonly httpStatus: number; readonly date: Date | undefined; readonly body: unknown; readonly text: string }
  | { readonly kind: 'failed'; readonly reason: string };

/**
 * A JSON GET client for rate endpoints (docs/providers.md § Rates): one keep-alive pool, a connect
 * timeout and a whole-call timeout. A source's credential, when it has one, travels in a header the
 * caller passes (never in the URL, never in a reason returned). Never throws for a
 * transport fault: every outcome is a `RateCall`. The response's `Date` header (RFC 9110 §6.6.1)
 * is returned for sources whose body carries no timestamp.
 */
export class RateHttpClient {
  private readonly agent: Agent;

  constructor(private readonly timeoutMs: number) {
    this.agent = new Agent({ keepAliveTimeout: 30_000, connections: 8, connect: { timeout: timeoutMs } });
  }

  /** GETs `url` with `headers` (e.g. a source's authorization) and reads the answer. */
  async get(url: URL, headers: Readonly<Record<string, string>> = {}): Promise<RateCall> {
    try {
      const response = await request(url, {
        method: 'GET',
        headers: { ...headers, accept: 'application/json' },
        dispatcher: this.agent,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        signal: AbortSignal.timeout(2 * this.timeoutMs),
      });
      const text = await response.body.text();
      const dateHeader = response.headers.date;
      const date = typeof dateHeader === 'string' && !Number.isNaN(Date.parse(dateHeader)) ? new Date(dateHeader) : undefined;
      return { kind: 'answer', httpStatus: response.statusCode, date, body: parseJson(text), text };
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

/**
 * Parses JSON `text` with every number kept as its literal text (a string), so a price a source
 * sends as a JSON number (e.g. `129.512345`) is read exactly, never through a binary float.
 * Undefined when `text` is not JSON. Pure.
 */
export function numbersAsText(text: string): unknown {
  if (parseJson(text) === undefined) return undefined;
  // Valid JSON: outside strings, a run starting with `-` or a digit is a number literal; quote it.
  const quoted = text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (token) => (token.startsWith('"') ? token : `"${token}"`));
  return parseJson(quoted);
}
