import jaroWinkler from 'talisman/metrics/jaro-winkler';

/** How two normalised names (their sorted tokens, nameTokens) are scored, 0 (unlike) to 1 (same). */
export type NameScorer = (a: readonly string[], b: readonly string[]) => number;

/** Jaro-Winkler (talisman) of the token-sorted names joined by spaces: one comparison of whole strings. */
export const sortedJaroWinkler: NameScorer = (a, b) => jaroWinkler(a.join(' '), b.join(' '));

/** Each token of `from` scored against its closest token of `to` (Jaro-Winkler, talisman), averaged. */
function closestTokens(from: readonly string[], to: readonly string[]): number {
  let sum = 0;
  for (const token of from) {
    let best = 0;
    for (const other of to) {
      const score = token === other ? 1 : jaroWinkler(token, other);
      if (score > best) best = score;
    }
    sum += best;
  }
  return sum / from.length;
}

/**
 * Token-level Jaro-Winkler, both ways (a symmetric Monge-Elkan mean over talisman's Jaro-Winkler):
 * every token of each name is matched to its closest token of the other, and the two averages
 * are averaged. Order-free by construction; a shared common given name counts for one token, not
 * for the prefix of the whole string (docs/decisions.md § Screening: measured against sortedJaroWinkler and fuse.js).
 */
export const tokenJaroWinkler: NameScorer = (a, b) => (a.length === 0 || b.length === 0 ? 0 : (closestTokens(a, b) + closestTokens(b, a)) / 2);
