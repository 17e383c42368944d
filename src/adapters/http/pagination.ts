import type { Request } from 'express';
import { z } from 'zod';

/** Query of a paginated list (docs/api.md § Lists and paging): `limit` 1..100 (default 50) and an opaque `cursor`. */
export const PageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(200).optional().meta({ description: 'From the Link rel="next" header of the previous page' }),
});

/** `Link: <path?...&cursor=...>; rel="next"`, keeping the caller's other query parameters. */
export function nextPageLink(req: Request, query: Record<string, unknown>, cursor: string): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...query, cursor })) if (value !== undefined) params.set(key, String(value));
  return `<${req.baseUrl}${req.path}?${params.toString()}>; rel="next"`;
}
