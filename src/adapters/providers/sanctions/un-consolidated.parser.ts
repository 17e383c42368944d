import type { ListEntry, SanctionsList } from '../../../core/screening/sanctions-screen';
import { err, ok, type Result } from '../../../core/shared/result';
import { child, children, joinName, parseListXml, text, type XmlNode } from './list-xml';

/**
 * Parses the UN Security Council consolidated list in its XML format (docs/decisions.md §
 * Screening; https://scsanctions.un.org/resources/xml/en/consolidated.xml, schema
 * https://www.un.org/sc/resources/sc-sanctions.xsd): `CONSOLIDATED_LIST` with its `dateGenerated`
 * attribute, `INDIVIDUALS/INDIVIDUAL` (`DATAID`, `FIRST_NAME` to `FOURTH_NAME`, `INDIVIDUAL_ALIAS/ALIAS_NAME`)
 * and `ENTITIES/ENTITY` (`DATAID`, `FIRST_NAME`, `ENTITY_ALIAS/ALIAS_NAME`). Empty alias elements
 * (`<ALIAS_NAME/>`) are skipped. Errors: `validation_error` (not well-formed, not a CONSOLIDATED_LIST,
 * no or bad dateGenerated, no entries, an entry without DATAID or name).
 */
export function parseUnConsolidated(document: string): Result<SanctionsList, 'validation_error'> {
  const tree = parseListXml(document, ['INDIVIDUAL', 'ENTITY', 'INDIVIDUAL_ALIAS', 'ENTITY_ALIAS']);
  if (!tree.ok) return tree;
  const root = child(tree.value, 'CONSOLIDATED_LIST');
  if (!root) return err('validation_error', 'not a UN consolidated list: no CONSOLIDATED_LIST element', { field: 'file' });
  const version = typeof root['@dateGenerated'] === 'string' ? root['@dateGenerated'] : undefined;
  const publishedAt = version ? new Date(version) : undefined;
  if (!version || !publishedAt || Number.isNaN(publishedAt.getTime())) {
    return err('validation_error', 'UN consolidated list without a valid dateGenerated attribute', { field: 'file' });
  }
  const entries: ListEntry[] = [];
  const parties: [XmlNode, string][] = [
    ...children(child(root, 'INDIVIDUALS'), 'INDIVIDUAL').map((node): [XmlNode, string] => [node, 'INDIVIDUAL_ALIAS']),
    ...children(child(root, 'ENTITIES'), 'ENTITY').map((node): [XmlNode, string] => [node, 'ENTITY_ALIAS']),
  ];
  for (const [node, aliasElement] of parties) {
    const id = text(node, 'DATAID');
    const name = joinName(text(node, 'FIRST_NAME'), text(node, 'SECOND_NAME'), text(node, 'THIRD_NAME'), text(node, 'FOURTH_NAME'));
    if (!id || !name) return err('validation_error', `an INDIVIDUAL or ENTITY without DATAID or name (after ${entries.length} entries)`, { field: 'file' });
    const aliases = children(node, aliasElement).map((alias) => text(alias, 'ALIAS_NAME')).filter((a): a is string => a !== undefined);
    entries.push({ entryId: id, names: [name, ...aliases], addresses: [] });
  }
  if (entries.length === 0) return err('validation_error', 'UN consolidated list without any INDIVIDUAL or ENTITY', { field: 'file' });
  return ok({ source: 'un-consolidated', version, publishedAt, entries });
}
