/**
 * Paging of REST lists (docs/api.md § Lists and paging): a list answers a JSON array, and when more
 * entries follow, its `Link` header holds the next page, `<...>; rel="next"`, to be followed as
 * given (the cursor is opaque).
 */

/** One link of a `Link` header (RFC 8288): its target as written and its relation types, lower case. */
export interface WebLink {
  readonly target: string;
  readonly rels: readonly string[];
}

/**
 * Parses a `Link` header into its links. Commas inside `<...>` and inside quoted parameter values
 * do not split links; parameters other than `rel` are ignored.
 */
export function parseLinkHeader(header: string | null): WebLink[] {
  if (!header) return [];
  const links: WebLink[] = [];
  // One link: <target> then any parameters; a parameter value is a token or a quoted string.
  const pattern = /<([^>]*)>((?:\s*;\s*[^;,=\s]+\s*(?:=\s*(?:"(?:[^"\\]|\\.)*"|[^;,\s]*))?)*)\s*(?:,|$)/g;
  for (const match of header.matchAll(pattern)) {
    const target = match[1] ?? '';
    const params = match[2] ?? '';
    const rel = /;\s*rel\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;,\s]+))/i.exec(params);
    const rels = rel ? (rel[1] ?? rel[2] ?? '').toLowerCase().split(/\s+/).filter(Boolean) : [];
    links.push({ target, rels });
  }
  return links;
}

/** The `rel="next"` target of a `Link` header, resolved against `base` (the URL that answered); undefined on the last page. */
export function nextPageUrl(header: string | null, base: string): URL | undefined {
  const next = parseLinkHeader(header).find((link) => link.rels.includes('next'));
  return next ? new URL(next.target, base) : undefined;
}

/**
 * The query of a next-page URL as parameters for the same operation, every value as the link
 * spells it (the service reads them as text, so `limit=50` need not become a number); a name the
 * link repeats (a multi-valued filter such as `status=failed&status=refunded`) becomes an array.
 */
export function queryOf(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    query[name] = values.length === 1 ? values[0]! : values;
  }
  return query;
}
