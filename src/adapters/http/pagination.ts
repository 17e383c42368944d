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
