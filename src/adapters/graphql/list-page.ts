import { ArgsType, Field, Int } from 'type-graphql';
import { z } from 'zod';
import type { Result } from '../../core/shared/result';
import { PageQuery } from '../contract/page.schema';
import type { FieldDrift, NoDrift } from '../contract/schema-ties';
import { fieldOf } from './contract-fields';
import { parseInput } from './graphql-errors';
import type { PageInfoType } from './payment.type';

/**
 * REST's page query under GraphQL's names, `limit` as `first` and `cursor` as `after`: the same
 * field rules (1..100, default 50; a cursor of at most 200 characters), described in GraphQL's terms.
 */
export const PageArgsSchema = z.strictObject({
  first: PageQuery.shape.limit.meta({ description: 'Page size, 1..100 (default 50); REST: limit' }),
  after: PageQuery.shape.cursor.meta({ description: 'pageInfo.endCursor of the previous page; REST: cursor' }),
});

/** Arguments of a list answered as a connection: `first` and `after`, checked by PageArgsSchema. */
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
 * refuses the other refuses too. Throws validation_error naming `args.first` or `args.after`.
 */
export function restPage(args: PageArgs): { limit: number; cursor: string | undefined } {
  const page = parseInput(PageArgsSchema, { ...args }, 'args');
  return { limit: page.first, cursor: page.after };
}

/**
 * A REST page (`entries`, `nextCursor` absent on the last page) as a forward-only connection
 * `{nodes, pageInfo}`: `endCursor` is REST's next cursor (the Link header's), null on the last page.
 */
export function connectionOf<T>(page: { entries: T[]; nextCursor?: string | undefined }): { nodes: T[]; pageInfo: PageInfoType } {
  return {
    nodes: page.entries,
    pageInfo: { hasNextPage: page.nextCursor !== undefined, hasPreviousPage: false, startCursor: null, endCursor: page.nextCursor ?? null },
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
