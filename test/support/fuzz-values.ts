/**
 * Deterministic hostile inputs for the fuzz suite (test/support/fuzz-suite.ts): a seeded PRNG, the hostile values
 * themselves (each with a printable label) and the encoders that put them in a path, a query
 * string or a JSON body exactly as described.
 */

/** mulberry32: a tiny seeded PRNG, so every run sends exactly the same requests. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A v4-shaped UUID drawn from `random` (deterministic). */
export function seededUuid(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = '89ab'[Math.floor(random() * 4)]!;
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** A JSON token written into a body verbatim (numbers JSON.stringify cannot produce, deep nesting). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** One hostile value and how a human reads it in a failure report. */
export interface Hostile {
  readonly label: string;
  readonly value: unknown;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** `prefix` + 26 Crockford base32 characters drawn from `random`: a well-formed id that exists nowhere. */
export function fakeUlidId(prefix: string, random: () => number): string {
  return prefix + Array.from({ length: 26 }, () => CROCKFORD[Math.floor(random() * 32)]).join('');
}

/** base64url of `text` (how the service's keyset cursors are written). */
export const cursorOf = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

/** Real ids seeded by the test, offered as hostile values of the wrong kind (a payment id as a customer id...). */
export interface KnownIds {
  readonly paymentId: string;
  readonly customerId: string;
  readonly webhookId: string;
  readonly tenantId: string;
  readonly transferReference: string;
  /** A cursor the service really issued, to mutate. */
  readonly realCursor?: string;
}

function nested(depth: number): unknown {
  let value: unknown = { leaf: 'x' };
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** An object whose own (JSON-visible) key is `key`, e.g. "__proto__", which an object literal cannot make. */
function ownKey(key: string, value: unknown): Record<string, unknown> {
  return JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value)}}`) as Record<string, unknown>;
}

/**
 * Every hostile value, in a fixed order. Strings cover emptiness, length, control characters,
 * broken UTF-16, bidi and emoji, injection look-alikes, number-ish and date-ish text, near-miss
 * UUIDs, ids of the wrong kind and odd cursors; then numbers, booleans, null, arrays and objects.
 */
export function hostileValues(ids: KnownIds, random: () => number): Hostile[] {
  const s = (label: string, value: unknown): Hostile => ({ label, value });
  const upperUuid = seededUuid(random).toUpperCase();
  const iso = '2024-01-01T00:00:00.000Z';
  const cursorIds = [fakeUlidId('pay_', random), fakeUlidId('cus_', random), fakeUlidId('ldg_', random), seededUuid(random)];
  const values: Hostile[] = [
    // emptiness and size
    s("''", ''), s("' '", ' '), s('tab+newline', '\t\n'), s("'x'*256", 'x'.repeat(256)),
    s("'x'*10k", 'x'.repeat(10_000)), s("'x'*100k", 'x'.repeat(100_000)), s("'é'*10k (multibyte)", 'é'.repeat(10_000)),
    // control characters and broken UTF-16
    s('NUL', '\u0000'), s('a NUL b', 'a\u0000b'), s('C0/C1 controls', '\u0001\u0007\u001b\u007f\u0085'), s('CRLF', 'a\r\nb'),
    s('lone high surrogate', '\uD800'), s('lone low surrogate in text', 'a\uDC00b'), s('BOM+ZWJ', '\uFEFF\u200D'),
    s('RTL override', '\u202Egnp.exe'), s('Arabic RTL', 'مرحبا بالعالم'), s('emoji', '😀👩‍👩‍👧‍👦🏳️‍🌈'),
    s('combining marks', 'Z\u0351\u0368\u0361\u036A'), s('non-BMP astral', '\u{10FFFF}\u{1F600}'),
    // injection look-alikes
    s('SQL', "' or 1=1--"), s('SQL union', "x'); drop table payments;--"), s('Mongo op', '{"$gt":""}'),
    s('JSON text', '{"a":[1,{"b":null}]}'), s('format string', '%s%n%x%d'), s('path traversal', '../../../../etc/passwd'),
    s('html', '<script>alert(1)</script>'), s('percent sequences', '%00%ff%'), s('backslashes', '\\\\\\u0000'),
    s('template', '${7*7}{{7*7}}'),
    // number-ish strings
    s("'-1'", '-1'), s("'0'", '0'), s("'1e308'", '1e308'), s("'NaN'", 'NaN'), s("'Infinity'", 'Infinity'), s("'-Infinity'", '-Infinity'),
    s("'1'+40 zeros", '1' + '0'.repeat(40)), s("'1'+400 zeros", '1' + '0'.repeat(400)), s("'0.0000001'", '0.0000001'),
    s("'0.'+40 digits", `0.${'1'.repeat(40)}`), s("'1.5'", '1.5'), s("' 12 '", ' 12 '), s("'0x1F'", '0x1F'), s("'1,000'", '1,000'),
    s("'-0'", '-0'), s("'00012'", '00012'), s("'9'*20", '9'.repeat(20)), s("'1.'", '1.'), s("'.5'", '.5'),
    // date-ish strings
    s("'0000-01-01'", '0000-01-01'), s("'-005000-01-01T00:00:00Z'", '-005000-01-01T00:00:00Z'),
    s("'+275760-09-13T00:00:00Z'", '+275760-09-13T00:00:00Z'), s("'9999-12-31T23:59:59Z'", '9999-12-31T23:59:59Z'),
    s("'0001-01-01T00:00:00Z'", '0001-01-01T00:00:00Z'), s("'0000-01-01T00:00:00Z'", '0000-01-01T00:00:00Z'),
    s("'2024-02-30'", '2024-02-30'), s("'2024-02-30T00:00:00Z'", '2024-02-30T00:00:00Z'), s("'2024-01-01T24:00:00Z'", '2024-01-01T24:00:00Z'),
    s("'2024-01-01T00:00:00+99:99'", '2024-01-01T00:00:00+99:99'), s("'1900-01-01'", '1900-01-01'), s("'2999-01-01'", '2999-01-01'),
    s("'1970-01-01T00:00:00.000000001Z'", '1970-01-01T00:00:00.000000001Z'),
    // UUID near-misses
    s("'a'*36", 'a'.repeat(36)), s("'-'*36", '-'.repeat(36)), s('uppercase uuid', upperUuid), s('nil uuid', '00000000-0000-0000-0000-000000000000'),
    s('max uuid', 'ffffffff-ffff-ffff-ffff-ffffffffffff'), s('uuid in braces', `{${seededUuid(random)}}`), s('uuid+suffix', `${seededUuid(random)}x`),
    s('z-uuid', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz'),
    // ids of the wrong kind
    s("'pay_'+26", fakeUlidId('pay_', random)), s("'cus_'+26", fakeUlidId('cus_', random)), s("'ten_'+26", fakeUlidId('ten_', random)),
    s("'key_'+26", fakeUlidId('key_', random)), s("'quo_'+26", fakeUlidId('quo_', random)), s("'ldg_'+26", fakeUlidId('ldg_', random)),
    s("'pay_'+26 lowercase", fakeUlidId('pay_', random).toLowerCase()), s("'pay_'+26 'I'", `pay_${'I'.repeat(26)}`), s("'pay_'", 'pay_'),
    s('real payment id', ids.paymentId), s('real customer id', ids.customerId), s('real webhook id', ids.webhookId),
    s('real tenant id', ids.tenantId), s('real transfer reference', ids.transferReference),
    // cursors with odd contents
    s('cursor of ""', cursorOf('')), s('cursor of "|"', cursorOf('|')), s('cursor of "x|y"', cursorOf('x|y')),
    s('cursor of "|||"', cursorOf('|||')), s('cursor with SQL id', cursorOf(`${iso}|' or 1=1--`)),
    s('cursor with NUL', cursorOf(`${iso}\u0000|\u0000`)), s('cursor of year 0000', cursorOf(`0000-01-01T00:00:00.000Z|${cursorIds[0]}`)),
    s('cursor of year +275760', cursorOf(`+275760-09-13T00:00:00.000Z|${cursorIds[1]}`)),
    s('cursor of Feb 30', cursorOf(`2024-02-30T00:00:00.000Z|${cursorIds[2]}`)),
    ...cursorIds.map((id) => s(`well-formed cursor for ${id.slice(0, 4)}`, cursorOf(`${iso}|${id}`))),
    ...cursorIds.map((id) => s(`cursor 9999 for ${id.slice(0, 4)}`, cursorOf(`9999-12-31T23:59:59.999Z|${id}`))),
    s('cursor of binary', Buffer.from(Array.from({ length: 48 }, () => Math.floor(random() * 256))).toString('base64url')),
    s('cursor of JSON', cursorOf('{"$gt":""}')), s('cursor not base64', '!!!***'), s('cursor 300 chars', cursorOf('y'.repeat(225))),
    ...(ids.realCursor ? [s('real cursor + "A"', `${ids.realCursor}A`), s('real cursor truncated', ids.realCursor.slice(0, -3))] : []),
    // numbers
    s('-1', -1), s('0', 0), s('1', 1), s('1e308', 1e308), s('-1e308', -1e308), s('1e-308', 1e-308), s('1.5', 1.5), s('2**53+1', 2 ** 53 + 1),
    s('0.1+0.2', 0.1 + 0.2), s('1e21', 1e21), s('raw 1e400', new RawJson('1e400')), s('raw -0', new RawJson('-0')),
    s('raw 1e-400', new RawJson('1e-400')), s('raw 30-digit integer', new RawJson('123456789012345678901234567890')),
    // other JSON types
    s('true', true), s('false', false), s('null', null), s('[]', []), s("['a']", ['a']), s('[1,2]', [1, 2]), s('[null]', [null]),
    s('[[[]]]', [[[]]]), s('{}', {}), s('{$gt:""}', { $gt: '' }), s('nested 200', nested(200)),
    s('{__proto__:{admin:true}}', ownKey('__proto__', { admin: true })), s('{constructor:{prototype:{}}}', { constructor: { prototype: { polluted: 1 } } }),
    s('raw array 5000 deep', new RawJson(`${'['.repeat(5000)}${']'.repeat(5000)}`)),
  ];
  return values;
}

/** JSON text of `value`, with every RawJson written verbatim. */
export function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof RawJson) {
      raws.push(v.text);
      return `\u0001RAW${raws.length - 1}\u0001`;
    }
    return v;
  });
  return (text ?? 'null').replace(/"\\u0001RAW(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)]!);
}

/**
 * Percent-encodes text for a URL like encodeURIComponent, but never throws: a lone surrogate is
 * written as its WTF-8 bytes (%ED%A0%80), which the server must refuse as malformed.
 */
export function percentEncode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += encodeURIComponent(text.slice(i, i + 2));
        i++;
        continue;
      }
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      out += `%${(0xe0 | (code >> 12)).toString(16).toUpperCase()}%${(0x80 | ((code >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (code & 0x3f)).toString(16).toUpperCase()}`;
      continue;
    }
    out += encodeURIComponent(text[i]!);
  }
  return out;
}

/** How a non-string value reads as text in a path segment or query value. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof RawJson) return value.text;
  if (value === null) return 'null';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * The query-string pairs that carry `value` as parameter `name`: strings and scalars as one pair,
 * arrays as repeated pairs (`a=1&a=2`), objects as bracketed keys (`a[k]=v`), null as a bare `a`.
 * An empty array yields a bare `name[]`.
 */
export function queryPairs(name: string, value: unknown): string[] {
  const key = percentEncode(name);
  if (value === null) return [key];
  if (Array.isArray(value)) return value.length === 0 ? [`${key}%5B%5D`] : value.flatMap((v) => queryPairs(name, v));
  if (typeof value === 'object' && !(value instanceof RawJson)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return [`${key}%5B%5D=`];
    return entries.map(([k, v]) => `${key}%5B${percentEncode(k)}%5D=${percentEncode(asText(v))}`);
  }
  return [`${key}=${percentEncode(asText(value))}`];
}

/** True when fetch can send `value` as a header value (ByteString without CR, LF or NUL). */
export function sendableHeader(value: string): boolean {
  return /^[\t\x20-\x7e\x80-\xff]*$/.test(value) && value.length < 8000;
}
