// ESLint flat config: typescript-eslint's recommended rules, plus the core's purity rule
// (dependency-cruiser checks the same thing on the resolved import graph).
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');

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
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'process', message: 'The core reads no environment: take settings as arguments.' }],
      'no-restricted-syntax': ['error', { selector: "CallExpression[callee.name='parseFloat']", message: 'Money is exact decimal in the core.' }],
    },
  },
);
