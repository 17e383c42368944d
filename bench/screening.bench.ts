/**
 * Sanctions screening benchmark (`npm run bench:screening`; docs/decisions.md § Screening): what
 * screening adds to a money-out with a full-size list loaded.
 * 1. A synthetic OFAC SDN.XML of BENCH_ENTRIES (18,000) entries, each with 0 to 3 aliases and 1 in 20
 *    with a digital currency address, given names drawn from a pool where the common ones recur as in
 *    the real list; parse and index build times.
 * 2. The added work itself: screenMoneyOut (name and refund address) on 20,000 recipient names of the
 *    kind our corridors pay (Kenyan, Nigerian, Ghanaian names, some sharing given names with listed
 *    ones): median, p99, max in microseconds.
 * 3. Before/after over HTTP: the real service (workers off), POST /v1/payments/moneyout one at a time,
 *    in interleaved rounds with the screen empty and with the synthetic list loaded: median and p99 of each.
 *
 * Run:  DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:screening
 * Env:  BENCH_ENTRIES (18000), BENCH_ROUNDS (6), BENCH_ROUND_SIZE (250), BENCH_HTTP (1; 0 skips part 3).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseOfacSdn } from '../src/adapters/providers/sanctions/ofac-sdn.parser';
import { SanctionsIndex } from '../src/adapters/providers/sanctions/sanctions-index';
import { sortedJaroWinkler } from '../src/adapters/providers/sanctions/name-similarity';
import { screenMoneyOut } from '../src/core/screening/screening-rules';
import { openBenchDatabase } from './bench-database';
import { startServiceServer } from './service-server';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 18_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const ROUND_SIZE = Number(process.env.BENCH_ROUND_SIZE ?? 250);
const THRESHOLD = 0.92;

/** A deterministic generator, so every run screens the same list and names. */
function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}
const random = seeded(42);
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;

// Given names recur across the real SDN list; surnames are mostly distinct.
const LISTED_GIVEN = ['Mohammed', 'Ali', 'Abdul', 'Ahmad', 'Hassan', 'Ibrahim', 'Yusuf', 'Omar', 'Sergei', 'Vladimir', 'Alexander', 'Dmitry',
  'Igor', 'Kim', 'Jose', 'Juan', 'Carlos', 'Luis', 'Hussein', 'Khalid', 'Said', 'Rashid', 'Ivan', 'Nikolai', 'Andrei', 'Pavel', 'Li', 'Wang'];
const SYLLABLES = ['ka', 'ro', 'vi', 'tan', 'mur', 'sha', 'lev', 'dor', 'zin', 'bek', 'nov', 'ska', 'rai', 'qul', 'ham', 'dji', 'pet', 'gor', 'tri', 'ulm'];
const surname = () => Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(SYLLABLES)).join('').toUpperCase();
const hex = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');

/** A synthetic SDN.XML in OFAC's published element names (see ofac-sdn.parser.ts). */
function syntheticSdnXml(entries: number): string {
  const parts = ['<?xml version="1.0" standalone="yes"?>', '<sdnList xmlns="https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/XML">',
    `<publshInformation><Publish_Date>11/25/2026</Publish_Date><Record_Count>${entries}</Record_Count></publshInformation>`];
  for (let i = 0; i < entries; i++) {
    const first = `${pick(LISTED_GIVEN)}${random() < 0.5 ? ` ${pick(LISTED_GIVEN)}` : ''}`;
    const last = surname();
    const akas = Array.from({ length: Math.floor(random() * 4) }, (_, a) => `<aka><uid>${i * 10 + a}</uid><type>a.k.a.</type><category>strong</category><firstName>${pick(LISTED_GIVEN)}</firstName><lastName>${surname()}</lastName></aka>`);
    const ids = random() < 0.05 ? `<idList><id><uid>${i}9</uid><idType>Digital Currency Address - ETH</idType><idNumber>0x${hex(40)}</idNumber></id></idList>` : '';
    parts.push(`<sdnEntry><uid>${100_000 + i}</uid><firstName>${first}</firstName><lastName>${last}</lastName><sdnType>Individual</sdnType>${ids}<akaList>${akas.join('')}</akaList></sdnEntry>`);
  }
  parts.push('</sdnList>');
  return parts.join('\n');
}

const RECIPIENT_GIVEN = ['John', 'Mary', 'Peter', 'Grace', 'Joseph', 'Faith', 'Samuel', 'Esther', 'Chinedu', 'Ngozi', 'Kwame', 'Ama', 'Ibrahim', 'Fatima',
  'Mohammed', 'Aisha', 'Daniel', 'Mercy', 'Emmanuel', 'Blessing', 'Ali', 'Yusuf'];
const RECIPIENT_LAST = ['Wanjiru', 'Otieno', 'Kamau', 'Mwangi', 'Okafor', 'Adebayo', 'Okonkwo', 'Mensah', 'Owusu', 'Boateng', 'Bello', 'Musa', 'Abubakar',
  'Njoroge', 'Achieng', 'Kiprono', 'Chebet', 'Nwosu', 'Eze', 'Asante'];
const recipient = () => `${pick(RECIPIENT_GIVEN)} ${pick(RECIPIENT_LAST)}`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1)! };
};

async function main(): Promise<void> {
  const t0 = performance.now();
  const document = syntheticSdnXml(ENTRIES);
  const t1 = performance.now();
  const parsed = parseOfacSdn(document);
  if (!parsed.ok) throw new Error(parsed.message);
  const t2 = performance.now();
  const index = new SanctionsIndex([{ ...parsed.value, loadedAt: new Date() }], THRESHOLD);
  const t3 = performance.now();
  console.log(`list: ${ENTRIES} entries, ${index.names} names and aliases, ${(document.length / 1e6).toFixed(1)} MB XML`);
  console.log(`  generate ${(t1 - t0).toFixed(0)} ms, parse ${(t2 - t1).toFixed(0)} ms, index ${(t3 - t2).toFixed(0)} ms`);

  const policy = { required: true, maxAgeDays: 7, retryAfterS: 60 };
  const names = Array.from({ length: 20_000 }, recipient);
  const sorted = new SanctionsIndex([{ ...parsed.value, loadedAt: new Date() }], THRESHOLD, sortedJaroWinkler);
  for (const [label, screen] of [['token by token (chosen)', index], ['token-sorted', sorted]] as const) {
    for (const name of names.slice(0, 2_000)) screenMoneyOut(screen, policy, 'live', { accountName: name, refundAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU' });
    let held = 0;
    const micros = names.map((name) => {
      const start = performance.now();
      const verdict = screenMoneyOut(screen, policy, 'live', { accountName: name, refundAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU' });
      const spent = (performance.now() - start) * 1000;
      if (verdict.kind === 'hold') held++;
      return spent;
    });
    const direct = summary(micros);
    console.log(`screenMoneyOut, Jaro-Winkler ${label}, ${names.length} recipient names (none listed): median ${direct.median.toFixed(1)} µs, `
      + `p99 ${direct.p99.toFixed(1)} µs, max ${direct.max.toFixed(0)} µs; held ${held} (${((100 * held) / names.length).toFixed(2)} %, all false positives)`);
  }

  if (process.env.BENCH_HTTP === '0') return;
  const bench = await openBenchDatabase(10, 'payout_screening_bench');
  const service = await startServiceServer(bench.database, bench.url, 10, 1);
  const empty = new SanctionsIndex([], THRESHOLD);
  const timings: Record<'without' | 'with', number[]> = { without: [], with: [] };
  try {
    const post = async (label: 'without' | 'with' | 'warmup') => {
      const start = performance.now();
      const res = await fetch(`${service.baseUrl}/v1/payments/moneyout`, {
        method: 'POST',
        headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify({
          fiatAmount: 1500, sourceCurrency: 'USDC', destinationCurrency: 'KES', country: 'KE', blockchain: 'SOLANA', paymentMethod: 'MOMO',
          accountName: recipient(), accountNumber: '254712345678', paymentCode: 'MPESA', reference: `ref-${randomUUID()}`,
          refundAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', optionalIssuerFee: 'NO',
        }),
      });
      await res.text();
      if (res.status !== 201) throw new Error(`money-out answered ${res.status}`);
      if (label !== 'warmup') timings[label].push(performance.now() - start);
    };
    for (let i = 0; i < 200; i++) await post('warmup');
    for (let round = 0; round < ROUNDS; round++) {
      // Alternating which goes first, so neither always meets a warmer or colder database.
      const order: ('without' | 'with')[] = round % 2 === 0 ? ['without', 'with'] : ['with', 'without'];
      for (const label of order) {
        service.container.screening.screen.swap(label === 'with' ? index : empty);
        for (let i = 0; i < ROUND_SIZE; i++) await post(label);
      }
    }
  } finally {
    await service.close();
    await bench.close();
  }
  const before = summary(timings.without);
  const after = summary(timings.with);
  console.log(`POST /v1/payments/moneyout, sequential, ${ROUNDS} interleaved rounds of ${ROUND_SIZE} each:`);
  console.log(`  without a list: median ${before.median.toFixed(2)} ms, p99 ${before.p99.toFixed(2)} ms`);
  console.log(`  with ${ENTRIES} entries: median ${after.median.toFixed(2)} ms, p99 ${after.p99.toFixed(2)} ms`);
  console.log(`  added at the median: ${(after.median - before.median).toFixed(3)} ms (target < 1 ms): ${after.median - before.median < 1 ? 'PASS' : 'MISS'}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
