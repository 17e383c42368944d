import type { ListParser } from '../../../core/screening/load-list';
import { parseOfacSdn } from './ofac-sdn.parser';
import { parseUnConsolidated } from './un-consolidated.parser';

/** Parses a list file in its source's published format (ListParser port; docs/decisions.md § Screening). */
export const parseSanctionsList: ListParser = (source, document) =>
  source === 'ofac-sdn' ? parseOfacSdn(document) : parseUnConsolidated(document);
