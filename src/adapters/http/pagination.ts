import type { Request } from 'express';

/**
 * `Link: <path?...&cursor=...>; rel="next"`, keeping the caller's other query parameters
 * (docs/api.md § Lists and paging). A parameter of several values is repeated, the form it is
 * accepted in.
 */
export function nextPageLink(req: Request, query: Record<string, unknown>, cursor: string): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...query, cursor })) {
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else if (value !== undefined) params.set(key, String(value));
  }
  return `<${req.baseUrl}${req.path}?${params.toString()}>; rel="next"`;
}

/** Where the core's page parameters sit in a REST request: `first` is the `limit` query parameter, `after` the `cursor` (docs/api.md § Lists and paging). */
export const PAGE_PARAMS: Readonly<Record<string, string>> = { first: 'query.limit', after: 'query.cursor', limit: 'query.limit', cursor: 'query.cursor' };
