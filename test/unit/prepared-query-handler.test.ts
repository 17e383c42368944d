import express, { type RequestHandler } from 'express';
import { execute, GraphQLError, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, parse, type GraphQLFormattedError, type ValidationRule } from 'graphql';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_PREPARED_QUERIES, preparedQueryHandler } from '../../src/adapters/graphql/prepared-query.handler';

const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      hello: { type: GraphQLString, args: { name: { type: GraphQLString } }, resolve: (_s, args: { name?: string }) => `hello ${args.name ?? 'you'}` },
      refused: { type: GraphQLString, resolve: () => { throw new GraphQLError('nope', { extensions: { code: 'forbidden', http: { status: 403 } } }); } },
      broken: { type: GraphQLString, resolve: async () => { throw new Error('database at 10.0.0.7 is down'); } },
      nested: {
        type: new GraphQLObjectType({ name: 'Nested', fields: { required: { type: new GraphQLNonNull(GraphQLString), resolve: () => null } } }),
        resolve: () => ({}),
      },
    },
  }),
  mutation: new GraphQLObjectType({ name: 'Mutation', fields: { touch: { type: GraphQLString, resolve: () => 'touched' } } }),
});

/** A rule refusing any field named `forbiddenField`, standing for armor's limits. */
const noForbidden: ValidationRule = (context) => ({
  Field(node) {
    if (node.name.value === 'forbiddenField') context.reportError(new GraphQLError('refused by a rule'));
  },
});

/**
 * The prepared-query path (docs/decisions.md § Performance) takes the queries it can answer as
 * Apollo does, and hands every other request to Apollo (here a stand-in that records them).
 */
describe('preparedQueryHandler', () => {
  let server: Server;
  let url: string;
  const toApollo: unknown[] = [];
  const encountered: string[] = [];
  /** What the formatter saw of each error: its JSON, and its cause's class and message (a cause marks a fault to mask). */
  const causes: { json: unknown; cause?: string }[] = [];
  let refuseContext = false;

  beforeAll(async () => {
    const apollo: RequestHandler = (req, res) => {
      toApollo.push(req.body);
      res.status(299).send('apollo');
    };
    const app = express();
    app.use(express.json());
    app.use(preparedQueryHandler({
      schema, validationRules: [noForbidden], maxTokens: 50,
      context: () => {
        if (refuseContext) throw new GraphQLError('no context');
        return {};
      },
      encounterErrors: async (errors) => {
        encountered.push(...errors.map((e) => e.message));
        // As armor's suggestion masking does: messages are rewritten in place.
        for (const error of errors) error.message = error.message.replace('10.0.0.7', '[hidden]');
      },
      formatError: (formatted: GraphQLFormattedError, error: GraphQLError) => {
        causes.push({ json: error.toJSON(), ...(error.originalError ? { cause: `${error.originalError.constructor.name}: ${error.originalError.message}` } : {}) });
        return { ...formatted, extensions: { ...formatted.extensions, formatted: true } };
      },
      development: false,
    }, apollo));
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    toApollo.length = 0;
    encountered.length = 0;
    causes.length = 0;
    refuseContext = false;
  });

  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: response.status, contentType: response.headers.get('content-type'), cacheControl: response.headers.get('cache-control'), text: await response.text() };
  };

  it('answers a valid query itself, every time, with Apollo\'s headers and body', async () => {
    for (const accept of [undefined, '*/*', 'application/json']) {
      const answer = await post({ query: 'query Q($n: String) { hello(name: $n) }', variables: { n: 'Ada' }, operationName: 'Q' }, accept ? { accept } : {});
      expect(answer).toEqual({ status: 200, contentType: 'application/json; charset=utf-8', cacheControl: 'no-store', text: '{"data":{"hello":"hello Ada"}}\n' });
    }
    expect((await post({ query: '{ hello }', variables: null, operationName: null })).text).toBe('{"data":{"hello":"hello you"}}\n');
    expect(toApollo).toEqual([]);
  });

  it("formats a resolver's error as Apollo does: hooks first, its HTTP status, no `http` extension", async () => {
    const answer = await post({ query: '{ hello refused }' });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.text)).toEqual({
      errors: [{ message: 'nope', locations: [{ line: 1, column: 9 }], path: ['refused'], extensions: { code: 'forbidden', formatted: true } }],
      data: { hello: 'hello you', refused: null },
    });
    expect(encountered).toEqual(['nope']);
    expect(toApollo).toEqual([]);
  });

  it("gives the formatter graphql-js's errors: same JSON, same cause, a message hooks can rewrite", async () => {
    const query = '{ hello broken nested { required } }';
    const answer = await post({ query });
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.text) as { errors: { path: string[] }[]; data: unknown };
    const byPath = <T extends { path?: readonly (string | number)[] }>(list: T[]) => [...list].sort((a, b) => String(a.path).localeCompare(String(b.path)));
    expect({ ...body, errors: byPath(body.errors) }).toEqual({
      errors: [
        { message: 'database at [hidden] is down', locations: [{ line: 1, column: 9 }], path: ['broken'], extensions: { code: 'INTERNAL_SERVER_ERROR', formatted: true } },
        { message: 'Cannot return null for non-nullable field Nested.required.', locations: [{ line: 1, column: 25 }], path: ['nested', 'required'], extensions: { code: 'INTERNAL_SERVER_ERROR', formatted: true } },
      ],
      data: { hello: 'hello you', broken: null, nested: null },
    });
    // graphql-js, as Apollo runs it, on the same document: the formatter saw the same errors with the same causes.
    const reference = await execute({ schema, document: parse(query), contextValue: {} });
    const seen = causes.map((c) => ({ ...c, json: { ...(c.json as object), message: (c.json as { message: string }).message.replace('[hidden]', '10.0.0.7') } }));
    const expected = (reference.errors ?? []).map((e) => ({ json: e.toJSON(), cause: `${e.originalError!.constructor.name}: ${e.originalError!.message}` }));
    const order = (list: { json: unknown }[]) => [...list].sort((a, b) => JSON.stringify(a.json).localeCompare(JSON.stringify(b.json)));
    expect(order(seen)).toEqual(order(expected));
    expect(toApollo).toEqual([]);
  });

  it('still answers documents it dropped from its bounded cache, and those it kept', async () => {
    const query = (i: number) => `{ a${i}: hello(name: "${i}") }`;
    for (let i = 0; i < MAX_PREPARED_QUERIES + 20; i++) await post({ query: query(i) });
    for (const i of [0, MAX_PREPARED_QUERIES + 19]) expect((await post({ query: query(i) })).text).toBe(`{"data":{"a${i}":"hello ${i}"}}\n`);
    expect(toApollo).toEqual([]);
  });

  it('hands Apollo everything else, unanswered', async () => {
    const bodies: [unknown, Record<string, string>?][] = [
      [{ query: 'mutation { touch }' }],
      [{ query: '{ hello' }],
      [{ query: '{ forbiddenField }' }],
      [{ query: '{ hello }', extensions: {} }],
      [{ query: '{ hello }', extra: 1 }],
      [{ query: '{ hello }' }, { accept: 'application/graphql-response+json' }],
      [{ query: 'query A { hello } query B { hello }', operationName: 'A' }],
      [{ query: 'query A { hello }', operationName: 'B' }],
      [{ query: '{ __schema { queryType { name } } }' }],
      [{ query: 'query Q($n: String) { hello(name: $n) }', variables: { n: 5 } }],
      [{ query: '{ hello }', variables: [1] }],
      [{ query: `{ ${'hello '.repeat(60)}}` }],
      [[{ query: '{ hello }' }]],
    ];
    for (const [body, headers] of bodies) {
      expect(await post(body, headers)).toMatchObject({ status: 299, text: 'apollo' });
    }
    expect(toApollo).toEqual(bodies.map(([body]) => body));
    const put = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ hello }' }) });
    expect(await put.text()).toBe('apollo');
    refuseContext = true;
    expect((await post({ query: '{ hello }' })).status).toBe(299);
  });
});
