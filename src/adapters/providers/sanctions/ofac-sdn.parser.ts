import type { ListEntry, SanctionsList } from '../../../core/screening/sanctions-screen';
import { err, ok, type Result } from '../../../core/shared/result';
import { child, children, joinName, parseListXml, text } from './list-xml';

/** The `idType` prefix OFAC gives digital currency addresses, e.g. "Digital Currency Address - XBT". */
const DIGITAL_CURRENCY = /^Digital Currency Address - (\S+)$/;

/**
 * Parses OFAC's SDN list in its SDN.XML format (docs/decisions.md § Screening; schema
 * https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/XML.xsd, announced at
 * https://ofac.treasury.gov/recent-actions/20240507_44): `sdnList` with `publshInformation/Publish_Date`
 * (MM/DD/YYYY) and one `sdnEntry` per party: `uid`, `firstName`, `lastName`, `akaList/aka`
 * (aliases, same name parts) and `idList/id` (`idType`, `idNumber`), where an `idType` of
 * "Digital Currency Address - <currency>" carries an address. Errors: `validation_error` (not
 * well-formed, not an sdnList, no or bad Publish_Date, no entries, an entry without uid or name).
 */
export function parseOfacSdn(document: string): Result<SanctionsList, 'validation_error'> {
  const tree = parseListXml(document, ['sdnEntry', 'aka', 'id']);
  if (!tree.ok) return tree;
  const root = child(tree.value, 'sdnList');
  if (!root) return err('validation_error', 'not an OFAC SDN.XML file: no sdnList element', { field: 'file' });
  const version = text(child(root, 'publshInformation'), 'Publish_Date');
  const date = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(version ?? '');
  if (!version || !date) return err('validation_error', 'OFAC SDN.XML without a Publish_Date in MM/DD/YYYY', { field: 'file' });
  const entries: ListEntry[] = [];
  for (const entry of children(root, 'sdnEntry')) {
    const uid = text(entry, 'uid');
    const name = joinName(text(entry, 'firstName'), text(entry, 'lastName'));
    if (!uid || !name) return err('validation_error', `an sdnEntry without uid or lastName (after ${entries.length} entries)`, { field: 'file' });
    const aliases = children(child(entry, 'akaList'), 'aka').map((aka) => joinName(text(aka, 'firstName'), text(aka, 'lastName')));
    const addresses = children(child(entry, 'idList'), 'id').flatMap((id) => {
      const currency = DIGITAL_CURRENCY.exec(text(id, 'idType') ?? '')?.[1];
      const address = text(id, 'idNumber');
      return currency && address ? [{ currency, address }] : [];
    });
    entries.push({ entryId: uid, names: [name, ...aliases.filter((a): a is string => a !== undefined)], addresses });
  }
  if (entries.length === 0) return err('validation_error', 'OFAC SDN.XML without any sdnEntry', { field: 'file' });
  const publishedAt = new Date(Date.UTC(Number(date[3]), Number(date[1]) - 1, Number(date[2])));
  return ok({ source: 'ofac-sdn', version, publishedAt, entries });
}
