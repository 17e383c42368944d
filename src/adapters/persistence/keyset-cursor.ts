/**
 * Opaque keyset-pagination cursors for lists ordered by (created_at desc, id desc): base64url of
 * "<created_at ISO>|<id>" of the last row shown. The next page is `(created_at, id) < cursor`.
 */
export function encodeCursor(createdAt: Date | string, id: string): string {
  return Buffer.from(`${new Date(createdAt).toISOString()}|${id}`).toString('base64url');
}

/** The (created_at, id) of a cursor, or undefined when it is malformed or its id does not match `idPattern`. */
export function decodeCursor(cursor: string, idPattern: RegExp): [Date, string] | undefined {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const when = new Date(at ?? '');
  return id && idPattern.test(id) && !Number.isNaN(when.getTime()) ? [when, id] : undefined;
}
