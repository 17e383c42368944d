import { ArgsType, Field, Int } from 'type-graphql';
import { z } from 'zod';
import type { KeysetPage } from '../../core/shared/keyset-page';
import type { Result } from '../../core/shared/result';
import { PageQuery } from '../contract/page.schema';
import type { FieldDrift, NoDrift } from '../contract/schema-ties';
import { fieldOf } from './contract-fields';
import { graphqlError } from './graphql-errors';
import type { Connection } from './connection.type';

/**
 * REST's page query under GraphQL's names, `limit` as `first` and `cursor` as `after`: the same
 * field rules (1..100, default 50; a cursor of at most 200 characters), described in GraphQL's terms.
 * Every connection of the schema pages with these rules: one default, one maximum.
 */
export const PageArgsSchema = z.strictObject({
  first: PageQuery.shape.limit.meta({ description: 'Page size, 1..100 (default 50); REST: limit' }),
  after: PageQuery.shape.cursor.meta({ description: 'pageInfo.endCursor of the previous page; REST: cursor' }),
});

/**
 * Arguments of a list answered as a connection: `first` and `after`, checked by PageArgsSchema.
 * The default page size is applied by that schema, not declared in the SDL, so that `payments`
 * can tell a `last` alone from a `first` the caller also sent; the description states it.
 */
@ArgsType()
export class PageArgs {
  @Field(() => Int, fieldOf(PageArgsSchema, 'first'))
  first?: number | null;

  @Field(() => String, fieldOf(PageArgsSchema, 'after'))
  after?: string | null;
}
type _PageArgsTie = NoDrift<FieldDrift<PageArgs, typeof PageArgsSchema>>;

/**
 * GraphQL's `first`/`after` as REST's `limit`/`cursor`, so a page size or cursor one transport
 * refuses the other refuses too. Other arguments of `args` (filters) are not looked at. Throws
 * validation_error with `details.field` naming `first` or `after`; the message names `<where>.first`.
 */
export function restPage(args: PageArgs, where = 'args'): { limit: number; cursor: string | undefined } {
  const parsed = PageArgsSchema.safeParse(withoutNull({ first: args.first, after: args.after }));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? 'first');
    throw graphqlError('validation_error', `Invalid input: ${where}.${field}: ${issue?.message ?? 'invalid'}`, { field });
  }
  return { limit: parsed.data.first, cursor: parsed.data.after };
}

/**
 * Backward paging (Relay's `last`/`before`) with the same rules as `first`/`after`: `last`
 * 1..100 (REST's limit rule, no default: paging backward is asked for by giving `last`) and
 * `before` a cursor of at most 200 characters.
 */
export const BackwardPageArgsSchema = z.strictObject({
  last: PageQuery.shape.limit.unwrap().optional()
    .meta({ description: 'Page backward: the last entries before `before` (or of the whole list), 1..100; not with first' }),
  before: PageQuery.shape.cursor.meta({ description: 'pageInfo.startCursor of the page after the one wanted; only with last' }),
});

/** Arguments of a connection that also pages backward: `first`/`after` or `last`/`before`. */
@ArgsType()
export class BidirectionalPageArgs extends PageArgs {
  @Field(() => Int, fieldOf(BackwardPageArgsSchema, 'last'))
  last?: number | null;

  @Field(() => String, fieldOf(BackwardPageArgsSchema, 'before'))
  before?: string | null;
}
type _BackwardPageArgsTie = NoDrift<FieldDrift<Pick<BidirectionalPageArgs, 'last' | 'before'>, typeof BackwardPageArgsSchema>>;

/**
 * A page request of a bidirectional connection: forward with `first` (default 50) after `after`,
 * or backward with `last` before `before`. Throws validation_error with `details.field` when
 * `first` or `after` comes with `last` or `before`, or a value breaks its rule.
 */
export function pageRequest(args: BidirectionalPageArgs): { size: number; direction: 'forward' | 'backward'; cursor: string | undefined } {
  if (args.last == null && args.before == null) {
    const { limit, cursor } = restPage(args);
    return { size: limit, direction: 'forward', cursor };
  }
  if (args.first != null || args.after != null) {
    const field = args.first != null ? 'first' : 'after';
    throw graphqlError('validation_error', `Invalid input: args.${field}: not with last or before (page one way at a time)`, { field });
  }
  if (args.last == null) throw graphqlError('validation_error', 'Invalid input: args.last: required with before', { field: 'last' });
  const parsed = BackwardPageArgsSchema.safeParse({ last: args.last, ...(args.before != null ? { before: args.before } : {}) });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? 'last');
    throw graphqlError('validation_error', `Invalid input: args.${field}: ${issue?.message ?? 'invalid'}`, { field });
  }
  return { size: parsed.data.last ?? args.last, direction: 'backward', cursor: parsed.data.before };
}

/** GraphQL's explicit null of an optional argument means absent, as in REST. */
function withoutNull(page: { first?: number | null; after?: string | null }): { first?: number; after?: string } {
  return { ...(page.first != null ? { first: page.first } : {}), ...(page.after != null ? { after: page.after } : {}) };
}

/**
 * A keyset page of the core as a forward connection: one edge per entry with the cursor that
 * resumes after it; `endCursor` is the last edge's cursor (REST's Link cursor when more follow).
 */
export function connectionOf<T>(page: KeysetPage<T>): Connection<T> {
  const edges = page.entries.map((node, i) => ({ node, cursor: page.cursors[i] as string }));
  return {
    edges,
    nodes: page.entries,
    pageInfo: {
      hasNextPage: page.nextCursor !== undefined, hasPreviousPage: false,
      startCursor: edges[0]?.cursor ?? null, endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

/**
 * The use cases name a bad page cursor `cursor` (REST's parameter); a GraphQL caller sent it as
 * `after`, so the error's message and `details.field` say `after`. Other results pass unchanged.
 */
export function cursorAsAfter<T, C extends string>(result: Result<T, C>): Result<T, C> {
  if (result.ok || result.details?.field !== 'cursor') return result;
  return { ...result, message: result.message.replace(/^cursor/, 'after'), details: { ...result.details, field: 'after' } };
}
