/**
 * Opaque keyset-pagination cursors for lists ordered by (created_at desc, id desc): base64url of
 * "<created_at ISO>|<id>" of the last row shown. The next page is `(created_at, id) < cursor`.
 */
export function encodeCursor(createdAt: Date | string, id: string): string {
  return Buffer.from(`${new Date(createdAt).toISOString()}|${id}`).toString('base64url');
}

/** The instant form encodeCursor writes, years 0001 to 9999 (what a PostgreSQL timestamp holds). */
const CURSOR_INSTANT = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * The (created_at, id) of a cursor, or undefined when it is malformed: its instant not exactly
 * as encodeCursor writes it (so no out-of-range date reaches the database) or its id not
 * matching `idPattern`.
 */
export function decodeCursor(cursor: string, idPattern: RegExp): [Date, string] | undefined {
  const [at = '', id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!CURSOR_INSTANT.test(at) || !id || !idPattern.test(id)) return undefined;
  const when = new Date(at);
  return !Number.isNaN(when.getTime()) && when.toISOString() === at ? [when, id] : undefined;
}
