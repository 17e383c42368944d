import { readFileSync } from 'node:fs';
import path from 'node:path';
import { printGraphqlSchema, SCHEMA_FILE } from '../../src/adapters/graphql/graphql-schema';

describe('schema/schema.graphql', () => {
  it('is what the code emits (run `npm run schema:emit` and commit the file when this fails)', () => {
    const committed = readFileSync(path.resolve(__dirname, '../..', SCHEMA_FILE), 'utf8');
    expect(committed).toBe(printGraphqlSchema());
  });
});
