/**
 * Compares name matchers on a labelled fixture (docs/decisions.md § Screening): fuse.js over the
 * token-sorted names, talisman's Jaro-Winkler over the token-sorted names, and talisman's
 * Jaro-Winkler token by token (tokenJaroWinkler). The lists are the test fixtures in OFAC's and the
 * UN's formats; each query is labelled with the entry it must hit, or none. Prints precision and
 * recall per matcher and threshold.
 *
 * Run:  npx ts-node --transpile-only bench/screening-matchers.ts
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Fuse from 'fuse.js';
import { parseOfacSdn } from '../src/adapters/providers/sanctions/ofac-sdn.parser';
import { parseUnConsolidated } from '../src/adapters/providers/sanctions/un-consolidated.parser';
import { nameTokens } from '../src/adapters/providers/sanctions/name-normaliser';
import { sortedJaroWinkler, tokenJaroWinkler, type NameScorer } from '../src/adapters/providers/sanctions/name-similarity';

const fixture = (name: string) => readFileSync(path.join(__dirname, '../test/fixtures/screening', name), 'utf8');
const ofac = parseOfacSdn(fixture('ofac-sdn.xml'));
const un = parseUnConsolidated(fixture('un-consolidated.xml'));
if (!ofac.ok || !un.ok) throw new Error('fixtures must parse');
const variants = [...ofac.value.entries, ...un.value.entries].flatMap((e) => e.names.map((name) => ({ entryId: e.entryId, tokens: nameTokens(name) })));

/** Query → the entry it must hit, or null: it must pass. */
const LABELLED: [string, string | null][] = [
  ['Vladimir Petrovsky', '90001'], ['Petrovsky, Vladimir', '90001'], ['Petrovsky Vladimir Ivanovich', '90001'], ['Петровский Владимир', '90001'],
  ['Vladimir Petrovskiy', '90001'], ['Northwind Exchange', '90002'], ['Northwind Digital Exchange Ltd.', '90002'], ['Al Rashidi Khalid Abdullah', '90003'],
  ['Khalid Abdullah Alrashidi', '90003'], ['Khalid Al-Rashidi', '90003'], ['Samuel Kiprono Chebet', '90004'], ['Chebet Samuel', '90004'],
  ['Jerome Kakwavu', '6909001'], ['Jérôme Kakwavu Bukande', '6909001'], ['Erick Badeje', '6909002'], ['Eric Badege', '6909002'],
  ['Zarya Trading Company', '6909101'], ['Заря Трейдинг', '6909101'], ['Zarya Treyding', '6909101'],
  ['Eric Baraka', null], ['Vladimir Otieno', null], ['Samuel Kiprono Otieno', null], ['Samuel Kamau', null], ['Khalid Hassan', null],
  ['Northwind Bakery', null], ['Mary Petrova', null], ['Eric Badu', null], ['Jane Wanjiku', null], ['John Kamau', null], ['Abdullah Musa', null],
  ['Trading Company Kenya Ltd', null], ['Jerome Otieno', null], ['Peter Chebet', null], ['Digital Exchange Kenya', null],
];

type Matcher = (query: string[]) => { entryId: string; score: number } | undefined;

const byScorer = (scorer: NameScorer): Matcher => (query) => variants
  .map((v) => ({ entryId: v.entryId, score: scorer(query, v.tokens) }))
  .sort((a, b) => b.score - a.score)[0];

const fuse = new Fuse(variants.map((v) => ({ entryId: v.entryId, key: v.tokens.join(' ') })), { keys: ['key'], includeScore: true, ignoreLocation: true, threshold: 1 });
const fuseMatcher: Matcher = (query) => {
  const best = fuse.search(query.join(' '))[0];
  return best ? { entryId: best.item.entryId, score: 1 - (best.score ?? 1) } : undefined;
};

const MATCHERS: [string, Matcher][] = [['fuse.js (token-sorted)', fuseMatcher], ['Jaro-Winkler (token-sorted)', byScorer(sortedJaroWinkler)], ['Jaro-Winkler (token by token)', byScorer(tokenJaroWinkler)]];

for (const [name, matcher] of MATCHERS) {
  const best = LABELLED.map(([query, expected]) => ({ query, expected, found: matcher(nameTokens(query)) }));
  console.log(`\n${name}`);
  for (const threshold of [0.8, 0.85, 0.88, 0.9, 0.92, 0.95]) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    const misses: string[] = [];
    for (const { query, expected, found } of best) {
      const hit = found && found.score >= threshold ? found.entryId : null;
      if (hit && hit === expected) tp++;
      else {
        if (hit) fp++;
        if (expected) fn++;
        if (hit || expected) misses.push(`${query}${hit ? ' (false hit)' : ' (missed)'}`);
      }
    }
    const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
    const recall = tp / LABELLED.filter(([, e]) => e).length;
    console.log(`  threshold ${threshold.toFixed(2)}: precision ${precision.toFixed(2)}, recall ${recall.toFixed(2)} (tp ${tp}, fp ${fp}, fn ${fn})${misses.length ? `: ${misses.join('; ')}` : ''}`);
  }
}
