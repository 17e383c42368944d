/**
 * Jest for the fast unit tests only (README "Tests"): test/unit, no database, no global setup.
 * `.ci/run` runs them; Stryker mutates src/core against them (stryker.config.json).
 */
const base = require('./jest.config.js');

module.exports = {
  testEnvironment: base.testEnvironment,
  transform: base.transform,
  transformIgnorePatterns: base.transformIgnorePatterns,
  roots: ['<rootDir>/test/unit'],
  testMatch: ['**/*.test.ts'],
  testTimeout: 10000,
};
