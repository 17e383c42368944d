import { PageQuery } from '../http/pagination';
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
