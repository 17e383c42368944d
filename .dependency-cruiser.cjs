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
      name: 'graphql-does-not-take-access-from-http',
      severity: 'error',
      comment: 'GraphQL authenticates and rate-limits through src/adapters/access, never through the REST adapter.',
      from: { path: '^src/adapters/graphql' },
      to: { path: '^src/adapters/http/(auth|rate-limit|access|request-log|http-server|client-errors)' },
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
