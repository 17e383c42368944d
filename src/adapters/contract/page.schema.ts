import { z } from 'zod';

/**
 * Query of a paginated list (docs/api.md § Lists and paging): `limit` 1..100 (default 50) and an
 * opaque `cursor`. REST takes it as is; GraphQL names the two `first` and `after` and checks them
 * with these very field schemas, so a page one transport refuses the other refuses too.
 */
export const PageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50).meta({ description: 'Entries per page, 1 to 100', example: 50 }),
  cursor: z.string().max(200).optional().meta({ description: 'Opaque: from the Link rel="next" header of the previous page; never build one' }),
});
