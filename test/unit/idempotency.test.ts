import { canonicalJson, UUID_PATTERN } from '../../src/core/idempotency/idempotency';

/** The canonical form behind the idempotency fingerprint (docs/decisions.md § Idempotency). */
describe('canonicalJson', () => {
  it('sorts object keys at every level', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: 'x' } })).toBe('{"a":{"c":"x","d":[{"y":2,"z":1}]},"b":1}');
  });

  it('gives one text for the same members in any order', () => {
    expect(canonicalJson({ fiatAmount: '1500', reference: 'r', accountName: 'J' }))
      .toBe(canonicalJson({ accountName: 'J', reference: 'r', fiatAmount: '1500' }));
  });

  it('sorts by code unit, not by locale (upper case before lower case, shorter prefix first)', () => {
    expect(canonicalJson({ b: 1, B: 2, a: 3, aa: 4, A: 5 })).toBe('{"A":5,"B":2,"a":3,"aa":4,"b":1}');
  });

  it('drops undefined members, keeps null ones', () => {
    expect(canonicalJson({ a: undefined, b: null, c: 1 })).toBe('{"b":null,"c":1}');
    expect(canonicalJson({ businessNumber: undefined, reference: 'r' })).toBe(canonicalJson({ reference: 'r' }));
    expect(canonicalJson({ nested: { x: undefined } })).toBe('{"nested":{}}');
  });

  it('keeps array order and writes scalars as JSON', () => {
    expect(canonicalJson([3, 'a', null, true, [2, 1]])).toBe('[3,"a",null,true,[2,1]]');
    expect(canonicalJson('quote "x"')).toBe('"quote \\"x\\""');
    expect(canonicalJson(1.5)).toBe('1.5');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson({})).toBe('{}');
    expect(canonicalJson([])).toBe('[]');
  });

  it('escapes keys as JSON strings', () => {
    expect(canonicalJson({ 'a"b': 1 })).toBe('{"a\\"b":1}');
  });
});

describe('UUID_PATTERN', () => {
  it.each(['0f8fad5b-d9cb-469f-a165-70867728950e', '0F8FAD5B-D9CB-469F-A165-70867728950E', '00000000-0000-1000-8000-000000000000'])('accepts %s', (key) => {
    expect(UUID_PATTERN.test(key)).toBe(true);
  });

  it.each(['', '0f8fad5b-d9cb-469f-a165-70867728950', 'x0f8fad5b-d9cb-469f-a165-70867728950e', '0f8fad5b-d9cb-469f-a165-70867728950e0',
    '0f8fad5bd9cb469fa16570867728950e', '0f8fad5b-d9cb-469f-a165-70867728950g'])('refuses %p', (key) => {
    expect(UUID_PATTERN.test(key)).toBe(false);
  });
});
