import type {
  AddressHit, ListSource, LoadedList, NameHit, NameScreening, SanctionsList, SanctionsScreen,
} from '../../../core/screening/sanctions-screen';
import { addressKey, nameTokens } from './name-normaliser';
import { tokenJaroWinkler, type NameScorer } from './name-similarity';

/** One name of one entry, normalised once at load. */
interface Variant {
  readonly source: ListSource;
  readonly entryId: string;
  readonly name: string;
  readonly tokens: readonly string[];
  /** The first two letters of each token, space-delimited (" al mo "): the cheap filter of large blocks. */
  readonly heads: string;
}

/** Blocks by a token's first characters: a name is scored only against names sharing one such prefix. */
const BLOCK_PREFIX = 4;
/**
 * A block larger than this (a given name such as Mohammed shared by thousands of listed names) is
 * not scored when the name has a smaller block: its other tokens find the same entries cheaper.
 */
const LARGE_BLOCK = 400;

const headsOf = (tokens: readonly string[]) => ` ${tokens.map((t) => t.slice(0, 2)).join(' ')} `;

function variantOf(source: ListSource, entryId: string, name: string): Variant {
  const tokens = nameTokens(name);
  return { source, entryId, name, tokens, heads: headsOf(tokens) };
}

/** The block of a token: its first BLOCK_PREFIX characters (shorter tokens are their own block). */
function blockOf(token: string): string {
  return token.slice(0, BLOCK_PREFIX);
}

/**
 * The in-memory screen over the loaded lists (SanctionsScreen; docs/decisions.md § Screening).
 * Names: each listed name and alias is normalised (nameTokens) and indexed by the prefixes of its
 * tokens; a screened name is scored (tokenJaroWinkler by default: talisman's Jaro-Winkler token by
 * token) only against the names sharing a token prefix with it, so a money-out scores tens of
 * names, not 18,000 entries. Addresses: an exact-match map (addressKey). Immutable: a reload builds a new index and
 * swaps it in (SwappableScreen).
 */
export class SanctionsIndex implements SanctionsScreen {
  private readonly variants: Variant[] = [];
  private readonly blocks = new Map<string, number[]>();
  private readonly addresses = new Map<string, AddressHit[]>();
  private readonly lists: LoadedList[];

  /** `threshold`: the similarity (0 to 1) at or above which a name is a hit (SCREENING_NAME_THRESHOLD). */
  constructor(
    lists: readonly (SanctionsList & { loadedAt: Date })[],
    private readonly threshold: number,
    private readonly scorer: NameScorer = tokenJaroWinkler,
  ) {
    this.lists = lists.map((l) => ({ source: l.source, version: l.version, publishedAt: l.publishedAt, loadedAt: l.loadedAt, entries: l.entries.length }));
    for (const list of lists) {
      for (const entry of list.entries) {
        for (const name of new Set(entry.names)) this.addVariant(variantOf(list.source, entry.entryId, name));
        for (const { currency, address } of entry.addresses) {
          const key = addressKey(address);
          const hits = this.addresses.get(key) ?? [];
          hits.push({ kind: 'address', source: list.source, entryId: entry.entryId, currency, address });
          this.addresses.set(key, hits);
        }
      }
    }
  }

  private addVariant(variant: Variant): void {
    if (variant.tokens.length === 0) return;
    const index = this.variants.push(variant) - 1;
    for (const block of new Set(variant.tokens.map(blockOf))) {
      const members = this.blocks.get(block);
      if (members) members.push(index);
      else this.blocks.set(block, [index]);
    }
  }

  screenName(name: string): NameScreening {
    const tokens = nameTokens(name);
    if (tokens.length === 0) return { hits: [] };
    const seen = new Set<number>();
    const best = new Map<string, NameHit>();
    let nearest: NameScreening['nearest'];
    const { blocks, heads } = this.candidateBlocks(tokens);
    for (const members of blocks) {
      for (const index of members) {
        if (seen.has(index)) continue;
        seen.add(index);
        const variant = this.variants[index]!;
        if (heads && !heads.some((head) => variant.heads.includes(head))) continue;
        const score = this.scorer(tokens, variant.tokens);
        if (score < this.threshold) {
          if (!nearest || score > nearest.score) nearest = { source: variant.source, entryId: variant.entryId, score };
          continue;
        }
        const id = `${variant.source}:${variant.entryId}`;
        const previous = best.get(id);
        if (!previous || score > previous.score) best.set(id, { kind: 'name', source: variant.source, entryId: variant.entryId, matchedName: variant.name, score });
      }
    }
    const hits = [...best.values()].sort((a, b) => b.score - a.score);
    return hits.length > 0 || !nearest ? { hits } : { hits, nearest };
  }

  /**
   * The blocks a name is scored against: its tokens' blocks, the large ones left out when a small
   * one exists. When every block is large (a name made of common given names and a surname the
   * lists do not have), the smallest is scored, but only its names that share the first two letters
   * of one of the name's other tokens (`heads`): a name sharing nothing else with a listed name
   * but a common given name seldom comes near the threshold, and scoring thousands of them would
   * cost milliseconds (docs/decisions.md § Screening: Index, with the recall this costs).
   */
  private candidateBlocks(tokens: readonly string[]): { blocks: number[][]; heads?: string[] } {
    const keyed = [...new Set(tokens.map(blockOf))].map((b) => ({ block: b, members: this.blocks.get(b) ?? [] })).filter((k) => k.members.length > 0);
    const small = keyed.filter((k) => k.members.length <= LARGE_BLOCK);
    if (small.length > 0 || keyed.length === 0) return { blocks: small.map((k) => k.members) };
    const smallest = keyed.reduce((a, b) => (b.members.length < a.members.length ? b : a));
    const others = tokens.filter((t) => blockOf(t) !== smallest.block).map((t) => ` ${t.slice(0, 2)} `);
    return others.length > 0 ? { blocks: [smallest.members], heads: others } : { blocks: [smallest.members] };
  }

  screenAddress(address: string): AddressHit[] {
    return this.addresses.get(addressKey(address)) ?? [];
  }

  loaded(): LoadedList[] {
    return this.lists;
  }

  /** How many names and aliases are indexed (benchmarks and readiness details). */
  get names(): number {
    return this.variants.length;
  }
}

/**
 * The screen the service holds: the current index, swapped whole when a reload builds a new one,
 * so a request always screens against one consistent set of lists.
 */
export class SwappableScreen implements SanctionsScreen {
  constructor(private current: SanctionsScreen) {}

  swap(next: SanctionsScreen): void {
    this.current = next;
  }

  screenName(name: string): NameScreening {
    return this.current.screenName(name);
  }

  screenAddress(address: string): AddressHit[] {
    return this.current.screenAddress(address);
  }

  loaded(): LoadedList[] {
    return this.current.loaded();
  }
}
