/**
 * Sanctions screening: the lists, what a screen answers, and the port the money-out asks
 * (docs/decisions.md § Screening).
 */

/** The public lists we load (docs/operations.md § Sanctions screening): OFAC's SDN.XML and the UN consolidated.xml. */
export const LIST_SOURCES = ['ofac-sdn', 'un-consolidated'] as const;
export type ListSource = (typeof LIST_SOURCES)[number];

/**
 * One designated party of a list: its id in that list (OFAC `uid`, UN `DATAID`), its names (the
 * primary name first, then every alias, as published), and its digital currency addresses
 * (OFAC `idType` "Digital Currency Address - XBT" gives currency `XBT`).
 */
export interface ListEntry {
  readonly entryId: string;
  readonly names: readonly string[];
  readonly addresses: readonly { readonly currency: string; readonly address: string }[];
}

/** A parsed list file: its source, the version it states (publication date or generation time) and its entries. */
export interface SanctionsList {
  readonly source: ListSource;
  /** The list's own version: OFAC's Publish_Date, the UN's dateGenerated, as published. */
  readonly version: string;
  /** When the list says it was published; the age limit counts from here. */
  readonly publishedAt: Date;
  readonly entries: readonly ListEntry[];
}

/** A name that resembles a listed one: which list and entry, which of its names, and the similarity score (0 to 1). */
export interface NameHit {
  readonly kind: 'name';
  readonly source: ListSource;
  readonly entryId: string;
  readonly matchedName: string;
  readonly score: number;
}

/** An address equal to a listed digital currency address (compared case-insensitively for 0x addresses, exactly otherwise). */
export interface AddressHit {
  readonly kind: 'address';
  readonly source: ListSource;
  readonly entryId: string;
  readonly currency: string;
  readonly address: string;
}

export type ScreeningHit = NameHit | AddressHit;

/** What screening a name answers: hits at or above the threshold, and the best score below it (logged, never a hit). */
export interface NameScreening {
  readonly hits: readonly NameHit[];
  /** The closest entry under the threshold, for the log (entry id and score only: a name is personal data). */
  readonly nearest?: { readonly source: ListSource; readonly entryId: string; readonly score: number };
}

/** A loaded list as operators see it (admin API and readiness details). */
export interface LoadedList {
  readonly source: ListSource;
  readonly version: string;
  readonly publishedAt: Date;
  readonly loadedAt: Date;
  readonly entries: number;
}

/**
 * Port: the in-memory screen over every loaded list (docs/decisions.md § Screening). Pure reads of
 * memory, never a database trip on a request: replicas reload it in the background.
 */
export interface SanctionsScreen {
  /** Screens a person's or company's name: hits scoring at or above the configured threshold. */
  screenName(name: string): NameScreening;
  /** Screens an onchain address: exact matches of a listed digital currency address. */
  screenAddress(address: string): AddressHit[];
  /** The lists loaded now, one per source; empty when none is. */
  loaded(): LoadedList[];
}
