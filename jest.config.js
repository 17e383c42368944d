/** Jest on real PostgreSQL (README "Tests"): DATABASE_URL's server when set, else an embedded one. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  // Each worker on a database of its own, cloned by global-setup from the migrated template (README "Tests").
  setupFiles: ['<rootDir>/test/support/worker-database.ts'],
  // Long files first, the fuzz suite's two thin files by the suite's size when jest has no durations yet.
  testSequencer: '<rootDir>/test/support/suite-size-sequencer.js',
  testTimeout: 30000,
  // The SDK's examples import it by its package name, as an integrator would.
  moduleNameMapper: { '^@payout-gateway/sdk$': '<rootDir>/sdk/src/index.ts' },
  transform: {
    '^.+\\.ts$': ['@swc/jest', {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
        keepClassNames: true,
      },
      module: { type: 'commonjs' },
    }],
    // ESM-only packages (@scure/bip32 2 and what it imports): Node 20 requires them natively, jest's
    // module runtime cannot, so they are compiled to CommonJS like our own sources.
    '^.+\\.js$': ['@swc/jest', { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  // any-ascii (sanctions screening's transliteration) is ESM-only too, and so are openid-client
  // (operator sign-in) and its jose and oauth4webapi.
  transformIgnorePatterns: ['/node_modules/(?!(@scure/(bip32|bip39|base)|@noble/(hashes|curves)|any-ascii|openid-client|oauth4webapi|jose)/)'],
};
