/**
 * True when any string inside `value` (object keys included, at any depth) holds a NUL
 * character, which PostgreSQL text cannot store: inputs with one are refused as validation errors
 * on every transport, before they reach a use case (DESIGN.md 7: bad input never gives a 500).
 */
export function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(hasNul);
  if (value !== null && typeof value === 'object') return Object.entries(value).some(([k, v]) => k.includes('\u0000') || hasNul(v));
  return false;
}
