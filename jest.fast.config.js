/**
 * Jest for every test that needs no database (README "Mutation testing"): the unit tests
 * (test/unit), the access adapters over real local HTTP and Redis (test/access) and the payout
 * providers' protocol tests over real local HTTP against the simulators (test/providers); no
 * global setup. Stryker mutates src/adapters/access and src/adapters/providers against them.
 */
const base = require('./jest.config.js');

module.exports = {
  testEnvironment: base.testEnvironment,
  transform: base.transform,
  transformIgnorePatterns: base.transformIgnorePatterns,
  moduleNameMapper: base.moduleNameMapper,
  roots: ['<rootDir>/test/unit', '<rootDir>/test/access', '<rootDir>/test/providers'],
  testMatch: ['**/*.test.ts'],
  testTimeout: 30000,
};
