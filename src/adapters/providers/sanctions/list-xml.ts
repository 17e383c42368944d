import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { err, ok, type Result } from '../../../core/shared/result';

/** A parsed XML element: children by name (arrays where a list may repeat), attributes as `@name`, text as strings. */
export type XmlNode = Record<string, unknown>;

/**
 * Parses a list file: well-formedness first (a truncated download is refused, not half read),
 * then a tree with every value a string (ids keep their leading zeros) and namespaces dropped
 * (OFAC changed its namespace on 7 May 2024: https://ofac.treasury.gov/recent-actions/20240507_44).
 * `repeated` names the elements that are always arrays. Errors: `validation_error` (also any DOCTYPE).
 */
export function parseListXml(document: string, repeated: readonly string[]): Result<XmlNode, 'validation_error'> {
  // Neither list declares a DOCTYPE; refusing one refuses entity definitions (expansion attacks) with it.
  if (/<!DOCTYPE/i.test(document)) return err('validation_error', 'a DOCTYPE is not accepted in a list file', { field: 'file' });
  const valid = XMLValidator.validate(document);
  if (valid !== true) return err('validation_error', `not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`, { field: 'file' });
  const names = new Set(repeated);
  const parser = new XMLParser({
    ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true, parseTagValue: false, trimValues: true,
    isArray: (name) => names.has(name),
  });
  return ok(parser.parse(document) as XmlNode);
}

/** The trimmed text of `node[name]`, or undefined when absent or empty. */
export function text(node: XmlNode | undefined, name: string): string | undefined {
  const value = node?.[name];
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** The child elements `node[name]` as an array (absent or empty: none). */
export function children(node: XmlNode | undefined, name: string): XmlNode[] {
  const value = node?.[name];
  if (Array.isArray(value)) return value.filter((v): v is XmlNode => typeof v === 'object' && v !== null);
  return typeof value === 'object' && value !== null ? [value as XmlNode] : [];
}

/** One element `node[name]`, or undefined. */
export function child(node: XmlNode | undefined, name: string): XmlNode | undefined {
  return children(node, name)[0];
}

/** Joins name parts with single spaces, skipping absent ones; undefined when none is present. */
export function joinName(...parts: (string | undefined)[]): string | undefined {
  const joined = parts.filter((p): p is string => p !== undefined && p.length > 0).join(' ').replace(/\s+/g, ' ').trim();
  return joined || undefined;
}
