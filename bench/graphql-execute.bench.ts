/**
 * graphql-js `execute` against graphql-jit's compiled query for the benchmark's document
 * (`payment(id)`, every field) on the service's schema, in this process, with a use case that
 * answers at once (no database, no HTTP): what executing one read costs each way, in µs, and the
 * ratio (docs/decisions.md § Performance, "GraphQL reads skip Apollo's pipeline").
 *
 * Run:  npx ts-node --transpile-only bench/graphql-execute.bench.ts
 * Env:  BENCH_ITERATIONS per round (20000), 5 rounds alternating the two.
 */
// First: libraries read NODE_ENV when they load.
import './production-env';
import { execute, parse } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { graphqlSchema } from '../src/adapters/graphql/graphql-schema';
import { PAYMENT_FIELDS } from '../test/support/graphql-client';

const view = {
  id: 'pay_01M8DVZM6N3BP5M7GNX7YCHRS7', status: 'initiated', paymentMethod: 'MOMO', sourceCurrency: 'USDC',
  amountStablecoin: '12.345678', fiatAmount: '1500.00', destinationCurrency: 'KES', providerRef: null, reference: 'bench',
  createdAt: '2026-11-27T06:00:00.000Z', updatedAt: '2026-11-27T06:00:00.000Z', failureReason: null, failureCode: null,
  exchangeRate: '129.5', payoutFee: '0.35',
};

async function main(): Promise<void> {
  const iterations = Number(process.env.BENCH_ITERATIONS ?? 20000);
  const schema = graphqlSchema();
  const document = parse(`query P($id: ID!) { payment(id: $id) { ${PAYMENT_FIELDS} } }`);
  const contextValue = { tenantId: 'ten_1', app: { getPayment: async () => ({ ok: true, value: view }) } };
  const variables = { id: view.id };
  const compiled = compileQuery(schema, document, 'P');
  if (!isCompiledQuery(compiled)) throw new Error('the document did not compile');
  const runs = {
    'graphql-js execute': () => execute({ schema, document, contextValue, variableValues: variables }),
    'graphql-jit compiled': () => compiled.query(undefined, contextValue, variables),
  };
  const a = JSON.stringify(await runs['graphql-js execute']());
  const b = JSON.stringify(await runs['graphql-jit compiled']());
  if (a !== b) throw new Error(`the two disagree: ${a} vs ${b}`);
  const totals = Object.fromEntries(Object.keys(runs).map((k) => [k, 0])) as Record<keyof typeof runs, number>;
  for (let round = 0; round < 6; round++) {
    for (const [name, run] of Object.entries(runs) as [keyof typeof runs, () => unknown][]) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < iterations; i++) await run();
      // Round 0 warms both up.
      if (round > 0) totals[name] += Number(process.hrtime.bigint() - start) / 1000;
    }
  }
  const per = (name: keyof typeof runs) => totals[name] / (5 * iterations);
  for (const name of Object.keys(runs) as (keyof typeof runs)[]) console.log(`${name}: ${per(name).toFixed(1)} µs per read`);
  console.log(`ratio jit/js: ${(per('graphql-jit compiled') / per('graphql-js execute')).toFixed(2)}`);
}

main().then(() => process.exit(0), (error) => {
  console.error(error);
  process.exit(1);
});
