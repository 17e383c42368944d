/** A raw graphql-transport-ws client over `ws`, for tests that speak the protocol frame by frame (hostile input, limits). */
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';

/** One frame as received: parsed JSON, or `{ unparsable: text }`. */
export type Frame = Record<string, any>;
/** How a socket closed. */
export interface Closed { code: number; reason: string }

/** Generous default wait: each wait resolves on an event; the limit only turns a hang into a failure. */
const DEFAULT_WAIT_MS = 5000;

/** A raw graphql-transport-ws client: records every frame and the close, never throws on its own. */
export class RawSocket {
  readonly frames: Frame[] = [];
  readonly errors: Error[] = [];
  closedWith?: Closed;
  readonly closed: Promise<Closed>;
  private readonly wakers = new Set<() => void>();
  private pings = 0;

  constructor(readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.closedWith = { code, reason: String(reason) };
        resolve(this.closedWith);
        this.wake();
      });
    });
    ws.on('message', (data) => {
      const text = String(data);
      try {
        this.frames.push(JSON.parse(text));
      } catch {
        this.frames.push({ unparsable: text });
      }
      this.wake();
    });
    // e.g. EPIPE/ECONNRESET while the server cuts an oversized frame short; the close code says the rest.
    ws.on('error', (error) => void this.errors.push(error));
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** Sends `message` as a text frame (objects as JSON, strings and buffers as they are). */
  send(message: unknown): void {
    this.ws.send(typeof message === 'string' || Buffer.isBuffer(message) ? message : JSON.stringify(message), { binary: false });
  }

  sendBinary(data: Buffer): void {
    this.ws.send(data, { binary: true });
  }

  /** The first frame matching `predicate`; rejects when the socket closes first or after `timeoutMs`. */
  async waitFor(predicate: (frame: Frame) => boolean, what: string, timeoutMs = DEFAULT_WAIT_MS): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.frames.find(predicate);
      if (hit) return hit;
      const seen = JSON.stringify(this.frames).slice(0, 2000);
      if (this.closedWith) throw new Error(`socket closed ${JSON.stringify(this.closedWith)} while waiting for ${what}; frames: ${seen}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; frames: ${seen}`);
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.wakers.delete(done);
          resolve();
        };
        const timer = setTimeout(done, left);
        this.wakers.add(done);
      });
    }
  }

  /** How the server closed the socket; rejects if it stays open for `timeoutMs`. */
  async closeOf(timeoutMs = DEFAULT_WAIT_MS): Promise<Closed> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`socket still open after ${timeoutMs} ms; frames: ${JSON.stringify(this.frames).slice(0, 2000)}`)), timeoutMs);
    });
    try {
      return await Promise.race([this.closed, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** connection_init with `payload`, then waits for connection_ack. */
  async init(payload: unknown): Promise<void> {
    this.send({ type: 'connection_init', payload });
    await this.waitFor((f) => f.type === 'connection_ack', 'connection_ack');
  }

  /**
   * A graphql-ws ping answered by its pong: proves the socket is open and that the server has
   * processed every frame sent before it (frames are handled in order).
   */
  async roundTrip(): Promise<void> {
    const marker = `rt-${++this.pings}-${randomUUID()}`;
    this.send({ type: 'ping', payload: { marker } });
    await this.waitFor((f) => f.type === 'pong' && f.payload?.marker === marker, `pong ${marker}`);
  }

  /** Frames about operation `id`. */
  about(id: string): Frame[] {
    return this.frames.filter((f) => f.id === id);
  }

  private wake(): void {
    for (const waker of [...this.wakers]) waker();
  }
}
