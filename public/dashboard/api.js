/**
 * How the console talks to the service over HTTP: POST /graphql with the operator's key as a
 * bearer token (the key is handed in by the caller and never stored), and GET /readyz, which
 * needs no key, for the chain watchers' positions.
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

/** GET /readyz's `chains` (each watched chain's head, finalized, lag and lease), or [] when none is watched. */
export async function chainWatchers() {
  const res = await fetch('/readyz');
  const body = await res.json();
  return body.chains || [];
}
