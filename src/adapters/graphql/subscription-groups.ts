import { print, subscribe, type ExecutionArgs, type ExecutionResult, type FormattedExecutionResult } from 'graphql';
import type { Logger } from 'pino';
import { canonicalJson } from '../../core/idempotency/idempotency';
import type { GraphqlContext, SubscriptionDelivery } from './graphql-context';

/**
 * Shared execution of GraphQL subscriptions (measured by bench/graphql.bench.ts): subscribers of one tenant
 * that sent the same operation with the same variables form a group. The group subscribes to the
 * source once, executes the selection once per event, serialises the result once, and writes that
 * same JSON into every member's graphql-ws `next` message (only the operation id differs). Cost
 * per event is one execution per group plus one socket write per subscriber, instead of one
 * execution and one serialisation per subscriber.
 *
 * Used as graphql-ws's `subscribe` hook: each member is an async generator that yields nothing
 * (the group writes to the socket itself) and ends when graphql-ws returns it (client `complete`,
 * socket closed) or when the source ends. The group executes with its first member's context; the
 * subscription's resolvers read only the tenant from it, which every member shares by construction.
 */
export class SubscriptionGroups {
  private readonly groups = new Map<string, Promise<Group | ExecutionResult>>();
  private readonly count = { members: 0 };

  constructor(
    private readonly format: (result: ExecutionResult) => FormattedExecutionResult,
    private readonly logger: Logger,
  ) {}

  /** Open subscriptions in this process, over all groups. */
  get subscriberCount(): number {
    return this.count.members;
  }

  /** Distinct (tenant, operation, variables) groups in this process. */
  get groupCount(): number {
    return this.groups.size;
  }

  /** graphql-ws `subscribe` hook; `args.contextValue` must be a GraphqlContext with a `delivery`. */
  readonly subscribe = async (args: ExecutionArgs): Promise<AsyncGenerator<never, undefined> | ExecutionResult> => {
    const context = args.contextValue as GraphqlContext;
    if (!context.delivery) throw new Error('a grouped subscription needs a delivery');
    const key = [context.tenantId, args.operationName ?? '', print(args.document), canonicalJson(args.variableValues ?? {})].join('\n');
    for (;;) {
      let pending = this.groups.get(key);
      if (!pending) {
        pending = this.open(key, args);
        this.groups.set(key, pending);
      }
      const group = await pending;
      if (!(group instanceof Group)) return group;
      // The last member may have left while this one awaited: then open a fresh group.
      if (!group.closed) return group.join(context.delivery);
    }
  };

  private async open(key: string, args: ExecutionArgs): Promise<Group | ExecutionResult> {
    const forget = () => this.groups.delete(key);
    try {
      const source = await subscribe(args);
      if (!(Symbol.asyncIterator in source)) {
        forget();
        return source;
      }
      const group = new Group(source, this.format, forget, this.count, this.logger);
      void group.pump();
      return group;
    } catch (error) {
      forget();
      throw error;
    }
  }
}

/** One upstream subscription shared by its members. */
class Group {
  closed = false;
  private readonly joined = new Set<Member>();

  constructor(
    private readonly source: AsyncGenerator<ExecutionResult, void, void>,
    private readonly format: (result: ExecutionResult) => FormattedExecutionResult,
    private readonly onClosed: () => void,
    private readonly count: { members: number },
    private readonly logger: Logger,
  ) {}

  join(delivery: SubscriptionDelivery): Member {
    const member = new Member(delivery, () => this.leave(member));
    this.joined.add(member);
    this.count.members += 1;
    return member;
  }

  async pump(): Promise<void> {
    try {
      for await (const result of this.source) {
        const payload = JSON.stringify(this.format(result));
        for (const member of this.joined) member.send(payload);
      }
    } catch (error) {
      this.logger.error({ err: error }, 'GraphQL subscription source failed');
    } finally {
      this.close();
      for (const member of [...this.joined]) member.finish();
    }
  }

  private leave(member: Member): void {
    if (!this.joined.delete(member)) return;
    this.count.members -= 1;
    if (this.joined.size === 0) {
      this.close();
      void this.source.return(undefined);
    }
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClosed();
  }
}

/** A subscriber: an async generator for graphql-ws that never yields and ends on `return()`. */
class Member implements AsyncGenerator<never, undefined> {
  private finished = false;
  private readonly prefix: string;
  private resolveDone!: (result: IteratorResult<never, undefined>) => void;
  private readonly done = new Promise<IteratorResult<never, undefined>>((resolve) => (this.resolveDone = resolve));

  constructor(private readonly delivery: SubscriptionDelivery, private readonly onLeave: () => void) {
    this.prefix = `{"id":${JSON.stringify(delivery.id)},"type":"next","payload":`;
  }

  /** Writes one event: the group's serialised result inside this subscription's `next` message. */
  send(payload: string): void {
    if (!this.finished) this.delivery.send(`${this.prefix}${payload}}`);
  }

  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.onLeave();
    this.resolveDone({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<never, undefined>> {
    return this.done;
  }

  return(): Promise<IteratorResult<never, undefined>> {
    this.finish();
    return this.done;
  }

  throw(error?: unknown): Promise<IteratorResult<never, undefined>> {
    this.finish();
    return Promise.reject(error);
  }

  [Symbol.asyncIterator](): AsyncGenerator<never, undefined> {
    return this;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.finish();
  }
}
