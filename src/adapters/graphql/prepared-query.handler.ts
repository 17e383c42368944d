import { ApolloServerErrorCode } from '@apollo/server/errors';
import type { RequestHandler, Response } from 'express';
import {
  execute, getNamedType, GraphQLError, isAbstractType, Kind, parse, TypeInfo, visitWithTypeInfo, specifiedRules, validate, visit, BREAK,
  type DocumentNode, type ExecutionResult, type GraphQLFormattedError, type GraphQLSchema, type ValidationRule,
} from 'graphql';
import type * as GraphqlJit from 'graphql-jit';

/** Most documents kept per process (valid queries and refusals alike); the least recently used goes first. */
export const MAX_PREPARED_QUERIES = 500;
/**
 * Most characters of query text kept in all. A parsed document keeps every token's location (errors
 * point at them): about 50 bytes per character of text; its compiled function about as much again
 * (21 KB of heap for the 14-field `payment(id)` document, and 500 of them added 26 MB of RSS with
 * their code), so this bounds the cache near 20 MB of heap and 30 MB of RSS.
 */
const MAX_PREPARED_CHARACTERS = 200_000;
/** Longest query text kept, in characters; a longer one always goes through Apollo. */
const MAX_PREPARED_LENGTH = 10_000;
/** Apollo's answer to a request without `Accept`, `*\/*` or `application/json`. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** Runs a prepared document with the request's context and raw variables (coerced by the runner). */
type Runner = (contextValue: unknown, variables: Record<string, unknown> | undefined) => Promise<ExecutionResult> | ExecutionResult;

/** A query document that parsed and passed every validation rule, with its one operation's name and its runner. */
interface PreparedQuery {
  readonly name: string | undefined;
  readonly run: Runner;
}

/** What the prepared-query path needs; every rule and hook is the one Apollo is given. */
export interface PreparedQueryDeps {
  readonly schema: GraphQLSchema;
  /** The validation rules Apollo runs after graphql-js's `specifiedRules` (armor's limits, NUL strings). */
  readonly validationRules: readonly ValidationRule[];
  /** graphql-js's token limit, as Apollo's `parseOptions`. */
  readonly maxTokens: number;
  /**
   * The request's context, as Apollo builds it; throws (a GraphQLError with its HTTP status) when
   * the request is refused, and the request then goes to Apollo, which refuses it the same way.
   */
  readonly context: (req: Parameters<RequestHandler>[0], res: Response) => unknown;
  /** Apollo's `didEncounterErrors` hooks of the protection plugins (armor hides field suggestions). */
  readonly encounterErrors: (errors: readonly GraphQLError[]) => Promise<void>;
  /** Formats one error as Apollo's `formatError` does, from Apollo's own formatted shape. */
  readonly formatError: (formatted: GraphQLFormattedError, error: GraphQLError) => GraphQLFormattedError;
  /** Adds `extensions.stacktrace`, as Apollo's includeStacktraceInErrorResponses. */
  readonly development: boolean;
}

/**
 * The read path of GraphQL over HTTP (docs/decisions.md § Performance, "GraphQL reads skip
 * Apollo's pipeline"): a POST whose JSON body is a `query` document already parsed and validated
 * in this process (keyed by its text; at most MAX_PREPARED_QUERIES documents and
 * MAX_PREPARED_CHARACTERS characters of text kept, least recently used dropped first), with plain `variables`
 * and no `extensions`, is executed directly (compiled by graphql-jit, or by graphql-js; see `compile`) and answered as Apollo answers it (status,
 * `Content-Type`, `Cache-Control: no-store`, body and error shapes). Everything else goes to
 * `apollo`, unchanged: mutations (their rate-limit plugin), subscriptions, documents that fail to
 * parse or validate (they are remembered as such, so refusals cost one parse here), introspection,
 * several operations in one document, an `operationName` that is not the document's, other
 * `Accept` types, variables that do not coerce (nothing ran yet), and a context that refuses.
 * A document is validated with graphql-js's rules plus `validationRules` and parsed with
 * `maxTokens`, Apollo's own, so the same documents pass.
 */
export function preparedQueryHandler(deps: PreparedQueryDeps, apollo: RequestHandler): RequestHandler {
  const prepared = new PreparedQueries(deps);
  return (req, res, next) => {
    // Apollo reads a GET's operation from the URL, whatever body it has.
    const query = req.method === 'POST' ? plainQuery(req.body, req.headers.accept) : undefined;
    const entry = query === undefined ? undefined : prepared.get(query.query);
    if (!query || !entry || (query.operationName != null && query.operationName !== entry.name)) return apollo(req, res, next);
    let contextValue: unknown;
    try {
      contextValue = deps.context(req, res);
    } catch {
      return apollo(req, res, next);
    }
    const finish = (result: ExecutionResult) => {
      // Variables that did not coerce: no resolver ran, so Apollo answers it (its 400 and message).
      if (result.data === undefined) return void apollo(req, res, next);
      if (!result.errors || result.errors.length === 0) return send(res, 200, { data: result.data, extensions: result.extensions });
      respondWithErrors(deps, res, result).catch(next);
    };
    const result = entry.run(contextValue, query.variables);
    if (result instanceof Promise) result.then(finish).catch(next);
    else finish(result);
  };
}

/** The body's query, variables and operation name when the request may take this path; undefined otherwise. */
function plainQuery(body: unknown, accept: string | undefined): { query: string; variables?: Record<string, unknown>; operationName?: string | null } | undefined {
  if (accept !== undefined && accept !== '*/*' && accept !== 'application/json') return undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { query, variables, operationName, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || typeof query !== 'string' || query.length > MAX_PREPARED_LENGTH) return undefined;
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return undefined;
  if (operationName != null && typeof operationName !== 'string') return undefined;
  return { query, ...(variables != null ? { variables: variables as Record<string, unknown> } : {}), operationName: operationName as string | null | undefined };
}

/** Writes a result with errors as Apollo's HTTP handler would: the errors formatted, their HTTP status if any. */
async function respondWithErrors(deps: PreparedQueryDeps, res: Response, result: ExecutionResult): Promise<void> {
  const errors = result.errors ?? [];
  await deps.encounterErrors(errors);
  let status = 200;
  const formatted = errors.map((error) => {
    // graphql-jit leaves `extensions` undefined on an error whose cause had none; graphql-js gives `{}`.
    const { http, ...extensions } = { ...error.extensions, code: error.extensions?.code ?? ApolloServerErrorCode.INTERNAL_SERVER_ERROR } as Record<string, unknown>;
    const httpStatus = (http as { status?: unknown } | undefined)?.status;
    if (typeof httpStatus === 'number') status = httpStatus;
    if (deps.development) extensions.stacktrace = error.stack?.split('\n');
    return deps.formatError({ ...error.toJSON(), extensions }, error);
  });
  send(res, status, { errors: formatted, data: result.data, extensions: result.extensions });
}

/** Apollo's headers and body (fields in its order: errors, data, extensions; a newline after the JSON). */
function send(res: Response, status: number, body: { errors?: GraphQLFormattedError[]; data: unknown; extensions: unknown }): void {
  res.setHeader('cache-control', 'no-store');
  res.setHeader('content-type', JSON_TYPE);
  res.statusCode = status;
  res.send(`${JSON.stringify({ errors: body.errors, data: body.data, extensions: body.extensions })}\n`);
}

/** Parsed and validated documents by query text; a document this path does not take is kept as `null`. */
class PreparedQueries {
  /** In least recently used order: a hit moves to the end. */
  private readonly entries = new Map<string, PreparedQuery | null>();
  private characters = 0;

  constructor(private readonly deps: PreparedQueryDeps) {}

  get(query: string): PreparedQuery | null {
    let entry = this.entries.get(query);
    if (entry !== undefined) {
      this.entries.delete(query);
    } else {
      entry = this.prepare(query);
      this.characters += query.length;
      for (const [oldest] of this.entries) {
        if (this.entries.size < MAX_PREPARED_QUERIES && this.characters <= MAX_PREPARED_CHARACTERS) break;
        this.entries.delete(oldest);
        this.characters -= oldest.length;
      }
    }
    this.entries.set(query, entry);
    return entry;
  }

  private prepare(query: string): PreparedQuery | null {
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: this.deps.maxTokens });
    } catch {
      return null;
    }
    const [operation, ...others] = document.definitions;
    if (others.length > 0 || operation?.kind !== Kind.OPERATION_DEFINITION || operation.operation !== 'query') return null;
    if (asksForIntrospection(document)) return null;
    if (validate(this.deps.schema, document, [...specifiedRules, ...this.deps.validationRules]).length > 0) return null;
    const name = operation.name?.value;
    return { name, run: compile(this.deps.schema, document, name) };
  }
}

/**
 * The document compiled by graphql-jit into one function (field collection, argument and variable
 * coercion and leaf serialisation done once, not per request), or graphql-js's `execute` when it
 * does not compile or selects an interface or union: graphql-jit 0.8.9 calls `resolveType`
 * without awaiting it, and type-graphql's are async. Compiled once per document kept; graphql-jit
 * answers variables that do not coerce without `data`, as graphql-js does.
 */
function compile(schema: GraphQLSchema, document: DocumentNode, name: string | undefined): Runner {
  // Loaded at the first document kept, not with the service: graphql-jit brings fast-json-stringify and ajv.
  const { compileQuery, isCompiledQuery } = require('graphql-jit') as typeof GraphqlJit;
  let compiled: ReturnType<typeof GraphqlJit.compileQuery<Record<string, unknown>, Record<string, unknown>>> | undefined;
  try {
    compiled = selectsAbstractType(schema, document) ? undefined : compileQuery<Record<string, unknown>, Record<string, unknown>>(schema, document, name);
  } catch {
    compiled = undefined;
  }
  if (compiled && isCompiledQuery(compiled)) {
    const query = compiled.query.bind(compiled);
    return (contextValue, variables) => {
      const result = query(undefined, contextValue, variables);
      return result instanceof Promise ? result.then(asGraphqlJsResult) : asGraphqlJsResult(result);
    };
  }
  return (contextValue, variableValues) => execute({ schema, document, contextValue, variableValues });
}

/**
 * A graphql-jit result whose execution errors are made graphql-js's own: graphql-jit's errors have
 * a read-only `message` (armor's hook rewrites messages), no `extensions` when their cause had none,
 * and no cause for the errors it raises itself (a null in a non-null field), where graphql-js keeps
 * the raw error as `originalError`, which is what marks the error as a fault to mask and log
 * (formatGraphqlError). Variable errors (no `data`) are left as they are: Apollo answers those.
 */
function asGraphqlJsResult(result: ExecutionResult): ExecutionResult {
  if (!result.errors || result.errors.length === 0 || result.data === undefined) return result;
  const errors = result.errors.map((jit) => {
    const error = new GraphQLError(jit.message, {
      path: jit.path, originalError: jit.originalError ?? new Error(jit.message), ...(jit.extensions ? { extensions: jit.extensions } : {}),
    });
    (error as { locations?: GraphQLError['locations'] }).locations = jit.locations;
    return error;
  });
  return { ...result, errors };
}

/** True when a field of the document has an interface or union type (a list of one, too). */
function selectsAbstractType(schema: GraphQLSchema, document: DocumentNode): boolean {
  const types = new TypeInfo(schema);
  let found = false;
  visit(document, visitWithTypeInfo(types, {
    Field() {
      if (!isAbstractType(getNamedType(types.getType()))) return undefined;
      found = true;
      return BREAK;
    },
  }));
  return found;
}

/** True when the document reads `__schema` or `__type` (Apollo decides whether introspection is allowed). */
function asksForIntrospection(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Field(node) {
      if (node.name.value === '__schema' || node.name.value === '__type') {
        found = true;
        return BREAK;
      }
      return undefined;
    },
  });
  return found;
}
