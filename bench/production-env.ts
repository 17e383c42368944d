/**
 * Imported first by the GraphQL benchmarks (bench/graphql.bench.ts, bench/graphql-profile.ts): the
 * service runs with NODE_ENV=production (the Dockerfile sets it), and some libraries read it once,
 * when they load: graphql-js, without it, checks every `instanceOf` for duplicate copies of itself,
 * a development-only cost no deployment pays.
 */
process.env.NODE_ENV = 'production';
