// ESLint flat config: typescript-eslint's recommended rules, plus the core's purity rule
// (dependency-cruiser checks the same thing on the resolved import graph).
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const graphql = require('@graphql-eslint/eslint-plugin');

module.exports = tseslint.config(
  { ignores: ['dist/**', 'sdk/dist/**', 'node_modules/**', '.data/**', 'coverage/**', 'migrations/**', 'test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', __dirname: 'readonly', module: 'writable', require: 'readonly' } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    // The operations console: browser ES modules, no build step; graphql-ws and Chart.js are UMD globals.
    files: ['public/dashboard/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: {
        document: 'readonly', window: 'readonly', fetch: 'readonly', location: 'readonly', setTimeout: 'readonly',
        clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', getComputedStyle: 'readonly', graphqlWs: 'readonly', Chart: 'readonly',
      },
    },
  },
  {
    // The operator console: browser ES modules, no build step, no libraries.
    files: ['public/console/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: {
        document: 'readonly', window: 'readonly', fetch: 'readonly', location: 'readonly', setInterval: 'readonly', clearInterval: 'readonly',
        URLSearchParams: 'readonly', FormData: 'readonly',
      },
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'process', message: 'The core reads no environment: take settings as arguments.' }],
      'no-restricted-syntax': ['error', { selector: "CallExpression[callee.name='parseFloat']", message: 'Money is exact decimal in the core.' }],
    },
  },
  {
    // The emitted GraphQL schema (npm run schema:emit) against graphql-eslint's schema rules and the
    // Relay rules (docs/decisions.md § GraphQL). Exceptions are listed here, each with its reason.
    files: ['schema/**/*.graphql'],
    languageOptions: { parser: graphql.parser, parserOptions: { graphQLConfig: { schema: 'schema/schema.graphql' } } },
    plugins: { '@graphql-eslint': graphql },
    rules: {
      ...graphql.configs['flat/schema-recommended'].rules,
      ...graphql.configs['flat/schema-relay'].rules,
      // Every type, root field and object field is described. Arguments and input fields REST also
      // takes are described by their zod schema in src/adapters/contract (docs/decisions.md § GraphQL).
      '@graphql-eslint/require-description': ['error', { types: true, rootField: true, DirectiveDefinition: true, FieldDefinition: true, InputValueDefinition: true }],
      // Value objects and answers have no identity of their own, so no `id`: connections, edges,
      // mutation answers (…Payload, …Result, TransferRequestLink), resolutions of someone else's
      // account, figures (AnalyticsGroup, Balance, CurrencyAmount, WebhookHealth of a registration),
      // catalog entries (Bank, Corridor), the caller (Me), PageInfo, views of a payment (PaymentTimeline and
      // its entries: the payment carries the id), TransferRequest, which the caller names by its
      // own reference, and DepositAddress (where to pay one currency: named by its chain and currency).
      '@graphql-eslint/strict-id-in-types': ['error', {
        exceptions: {
          suffixes: ['Connection', 'Edge', 'Payload', 'Result', 'Resolution'],
          types: [
            'AnalyticsGroup', 'Balance', 'Bank', 'Corridor', 'CurrencyAmount', 'DepositAddress', 'Me', 'PageInfo', 'PaymentTimeline', 'PaymentTimelineEntry',
            'TransferRequest', 'TransferRequestLink', 'WebhookHealth',
          ],
        },
      }],
      // Field names are REST's, so one payload reads the same from both transports: Payment.paymentMethod
      // and Bank.bankCode are the REST names (the deprecated Webhook.webhookId too).
      '@graphql-eslint/no-typename-prefix': 'off',
      // Backward paging (last/before) only where a reader pages back: payments. Logs and ledgers
      // are read forward from the newest entry, as REST's Link paging does.
      '@graphql-eslint/relay-arguments': ['error', { includeBoth: false }],
      // Short, bounded lists are answered whole, not paged: balances (one per stablecoin), banks of a
      // country, webhook registrations (capped per tenant), analytics groups, event types, volumes
      // per currency, operator codes, and a connection's `nodes` shortcut.
      '@graphql-eslint/relay-edge-types': ['error', { listTypeCanWrapOnlyEdgeType: false }],
    },
  },
);
