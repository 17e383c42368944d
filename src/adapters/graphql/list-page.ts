import type { Result } from '../../core/shared/result';
import { PageQuery } from '../contract/page.schema';
import { parseInput } from './graphql-errors';
import type { PageInfoType } from './payment.type';

/**
 * GraphQL's `first`/`after` as REST's `limit`/`cursor`, checked by REST's own field schemas so a
 * page size or cursor one transport refuses the other refuses too (limit 1..100, default 50).
 * Throws validation_error naming `args.first` or `args.after`.
 */
export function restPage(first: number | null | undefined, after: string | null | undefined): { limit: number; cursor: string | undefined } {
  return {
    limit: parseInput(PageQuery.shape.limit, first ?? undefined, 'args.first'),
    cursor: parseInput(PageQuery.shape.cursor, after ?? undefined, 'args.after'),
  };
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
