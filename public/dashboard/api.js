/**
 * The console's one way to talk to the service over HTTP: POST /graphql with the operator's key
 * as a bearer token. The key is handed in by the caller and never stored.
 */

/** A GraphQL error as the page shows it: the message, and `extensions.code` (e.g. not_found). */
export class GraphqlError extends Error {
  constructor(message, code) {
    super(message);
    this.code = code;
  }
}

/** Runs one operation; resolves with `data`, rejects with a GraphqlError on the first error. */
export async function request(key, query, variables) {
  const res = await fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer ' + key },
    body: JSON.stringify({ query: query, variables: variables || {} }),
  });
  const body = await res.json();
  if (body.errors && body.errors.length) {
    const first = body.errors[0];
    throw new GraphqlError(first.message, first.extensions && first.extensions.code);
  }
  return body.data;
}

/** GET /health with the key: the service's health, with `chains` (each deposit watcher's lag) when a chain is configured. 503 (degraded) still has a body. */
export async function health(key) {
  const res = await fetch('/health', { headers: { authorization: 'Bearer ' + key } });
  return res.json();
}
