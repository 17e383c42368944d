/**
 * In-process publish/subscribe keyed by tenant (docs/decisions.md § GraphQL): the payment event feed
 * publishes each committed payment change here once, and every GraphQL subscription group of that
 * tenant reads it as an async iterator. Nothing crosses tenants: a subscriber only ever sees
 * values published under its own tenant id.
 */
export class TenantEventBus<T> {
  private readonly listeners = new Map<string, Set<PushIterator<T>>>();

  /** True when someone in this process listens to `tenantId` (the feed skips loading otherwise). */
  hasListeners(tenantId: string): boolean {
    return this.listenerCount(tenantId) > 0;
  }

  /** How many listeners `tenantId` has in this process. */
  listenerCount(tenantId: string): number {
    return this.listeners.get(tenantId)?.size ?? 0;
  }

  /** Tenants with at least one listener in this process. */
  tenants(): string[] {
    return [...this.listeners.keys()];
  }

  /** Hands `value` to every current listener of `tenantId`, in publication order. */
  publish(tenantId: string, value: T): void {
    for (const listener of this.listeners.get(tenantId) ?? []) listener.push(value);
  }

  /**
   * An async iterator of the values published for `tenantId` from now on that pass `accept`,
   * buffered without bound (each listener is a subscription group that drains at once).
   * `return()` unsubscribes at once, even while a `next()` is pending, so nothing leaks.
   */
  subscribe(tenantId: string, accept: (value: T) => boolean = () => true): AsyncIterableIterator<T> {
    let set = this.listeners.get(tenantId);
    if (!set) this.listeners.set(tenantId, (set = new Set()));
    const listeners = set;
    const iterator = new PushIterator<T>(accept, () => {
      listeners.delete(iterator);
      if (listeners.size === 0 && this.listeners.get(tenantId) === listeners) this.listeners.delete(tenantId);
    });
    listeners.add(iterator);
    return iterator;
  }
}

/** A push-fed async iterator whose `return()` resolves a pending `next()` with `done`. */
class PushIterator<T> implements AsyncIterableIterator<T> {
  private readonly queue: T[] = [];
  private waiting?: (result: IteratorResult<T>) => void;
  private closed = false;

  constructor(private readonly accept: (value: T) => boolean, private readonly onClose: () => void) {}

  push(value: T): void {
    if (this.closed || !this.accept(value)) return;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting({ value, done: false });
    } else {
      this.queue.push(value);
    }
  }

  next(): Promise<IteratorResult<T>> {
    if (this.queue.length > 0) return Promise.resolve({ value: this.queue.shift() as T, done: false });
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<T>> {
    if (!this.closed) {
      this.closed = true;
      this.queue.length = 0;
      this.onClose();
      this.waiting?.({ value: undefined, done: true });
      this.waiting = undefined;
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(error?: unknown): Promise<IteratorResult<T>> {
    void this.return();
    return Promise.reject(error);
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
