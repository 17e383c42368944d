/**
 * Writes schema/schema.graphql from the code (docs/decisions.md § GraphQL). Run with `npm run schema:emit` after
 * changing a GraphQL type or resolver, and commit the result; test/e2e/graphql-schema.test.ts
 * fails while the committed file is stale.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { printGraphqlSchema, SCHEMA_FILE } from '../src/adapters/graphql/graphql-schema';

const target = path.resolve(__dirname, '..', SCHEMA_FILE);
writeFileSync(target, printGraphqlSchema());
process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
