/** Deepest nesting of arrays and objects accepted in a request's JSON (bodies, GraphQL variables). */
export const MAX_JSON_DEPTH = 32;

/**
 * Why `value` (a parsed JSON body, query or GraphQL variables) must be refused before any schema
 * or use case sees it, or undefined when it is acceptable: a string or key holding a NUL
 * character (PostgreSQL text cannot store one), or nesting deeper than MAX_JSON_DEPTH (deep enough
 * to overflow a recursive walk). Iterative, so no input can exhaust the stack here
 * (docs/decisions.md § Errors: shapes per route family: bad input never gives a 500).
 */
export function inputProblem(value: unknown): string | undefined {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return 'must not contain NUL characters';
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return `must not be nested more than ${MAX_JSON_DEPTH} levels deep`;
    for (const [key, child] of Object.entries(current)) {
      if (key.includes('\u0000')) return 'must not contain NUL characters';
      pending.push([child, depth + 1]);
    }
  }
  return undefined;
}
