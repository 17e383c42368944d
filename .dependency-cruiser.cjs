/**
 * Import rules (docs/architecture.md), checked in CI by `npm run lint`:
 * the core imports only the core and small pure libraries; adapters never import the app.
 */
module.exports = {
  forbidden: [
    {
      name: 'core-is-pure',
      severity: 'error',
      comment: 'src/core may import only src/core and pure libraries (decimal arithmetic, ulid).',
      from: { path: '^src/core' },
      to: { pathNot: ['^src/core', '^node_modules/(decimal\\.js|ulid)/'] },
    },
    {
      name: 'adapters-do-not-import-app',
      severity: 'error',
      comment: 'The composition root depends on adapters, never the other way round.',
      from: { path: '^src/adapters' },
      to: { path: '^src/app' },
    },
    {
      name: 'access-is-transport-neutral',
      severity: 'error',
      comment: 'Authentication and rate limits have one home, src/adapters/access, which no transport owns.',
      from: { path: '^src/adapters/access' },
      to: { path: '^src/adapters/(http|graphql)/' },
    },
    {
      name: 'contract-is-transport-neutral',
      severity: 'error',
      comment:
        'src/adapters/contract holds what REST and GraphQL share (request schemas, error codes and maps, input guards, paging): '
        + 'it imports only the core, itself and zod, never a transport, persistence or another adapter.',
      from: { path: '^src/adapters/contract' },
      to: { pathNot: ['^src/core', '^src/adapters/contract', '^node_modules/(zod|zod-openapi)/'] },
    },
    {
      name: 'persistence-does-not-import-notifications',
      severity: 'error',
      comment: 'Persistence sends NOTIFY and owns its channels (notify-channels.ts); who listens is none of its business.',
      from: { path: '^src/adapters/persistence' },
      to: { path: '^src/adapters/notifications' },
    },
    {
      name: 'notifications-read-through-persistence-ports',
      severity: 'error',
      comment: 'Notifications read through persistence ports (repositories), never through table schemas or their own SQL.',
      from: { path: '^src/adapters/notifications' },
      to: { path: '^src/adapters/persistence/schemas/' },
    },
    {
      name: 'graphql-does-not-import-http',
      severity: 'error',
      comment: 'GraphQL takes schemas and codes from src/adapters/contract and access from src/adapters/access, never from the REST adapter.',
      from: { path: '^src/adapters/graphql' },
      to: { path: '^src/adapters/http' },
    },
    {
      name: 'http-does-not-import-graphql',
      severity: 'error',
      comment: 'What REST mounts from GraphQL (/graphql, /dashboard) is handed to it by src/app, never imported.',
      from: { path: '^src/adapters/http' },
      to: { path: '^src/adapters/graphql' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
