import { ApolloServerErrorCode, ApolloServerValidationErrorCode, unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { z } from 'zod';
import type { Result } from '../../core/shared/result';
import { SHAPE_A_STATUS, SHAPE_B_STATUS, SHAPE_C_STATUS, type ShapeACode, type ShapeBCode, type ShapeCCode } from '../contract/error-codes';

/**
 * `extensions.code` of every GraphQL error: the code REST answers for the same failure, whichever
 * shape carries it there (A, B or C; docs/decisions.md § Errors: shapes per route family and § GraphQL). FX's numeric shape D has no names, so FX
 * failures use the shape A names of the same meaning.
 */
export type GraphqlErrorCode = ShapeACode | ShapeBCode | ShapeCCode | GraphqlOnlyCode;

/**
 * Codes only GraphQL answers, with their HTTP status: no REST operation fails this way.
 * `persisted_query_not_supported`: the request asked for an automatic persisted query, which this
 * server does not keep (docs/decisions.md § GraphQL).
 */
export const GRAPHQL_ONLY_STATUS = { persisted_query_not_supported: 400 } as const;
type GraphqlOnlyCode = keyof typeof GRAPHQL_ONLY_STATUS;

const GRAPHQL_ERROR_CODES: ReadonlySet<string> = new Set([
  ...Object.keys(SHAPE_A_STATUS), ...Object.keys(SHAPE_B_STATUS), ...Object.keys(SHAPE_C_STATUS), ...Object.keys(GRAPHQL_ONLY_STATUS),
]);

/** Reads of one resource. */
export const READ_ERRORS: Record<'not_found', GraphqlErrorCode> = { not_found: 'not_found' };

/** Lists. */
export const LIST_ERRORS: Record<'validation_error', GraphqlErrorCode> = { validation_error: 'validation_error' };

/** Errors Apollo and graphql-js raise themselves (parse, validation, coercion, armor): all the caller's fault but one. */
const FRAMEWORK_ERRORS: Record<ApolloServerErrorCode | ApolloServerValidationErrorCode, GraphqlErrorCode> = {
  [ApolloServerErrorCode.INTERNAL_SERVER_ERROR]: 'internal_error',
  [ApolloServerErrorCode.GRAPHQL_PARSE_FAILED]: 'validation_error',
  [ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED]: 'validation_error',
  [ApolloServerErrorCode.PERSISTED_QUERY_NOT_FOUND]: 'validation_error',
  [ApolloServerErrorCode.PERSISTED_QUERY_NOT_SUPPORTED]: 'persisted_query_not_supported',
  [ApolloServerErrorCode.BAD_USER_INPUT]: 'validation_error',
  [ApolloServerErrorCode.OPERATION_RESOLUTION_FAILURE]: 'validation_error',
  [ApolloServerErrorCode.BAD_REQUEST]: 'validation_error',
  [ApolloServerValidationErrorCode.INTROSPECTION_DISABLED]: 'validation_error',
  [ApolloServerValidationErrorCode.MAX_RECURSIVE_SELECTIONS_EXCEEDED]: 'validation_error',
};

/** A GraphQL error with `extensions.code`; `httpStatus` only for errors that fail a whole HTTP request (auth). */
export function graphqlError(code: GraphqlErrorCode, message: string, details?: Readonly<Record<string, unknown>>, httpStatus?: number): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code, ...(details ? { details } : {}), ...(httpStatus ? { http: { status: httpStatus } } : {}) },
  });
}

/** The value of `result`, or throws its error mapped through `codes` (the transport's exhaustive Record). */
export function valueOf<T, C extends string>(result: Result<T, C>, codes: Record<C, GraphqlErrorCode>): T {
  if (result.ok) return result.value;
  throw graphqlError(codes[result.code], result.message, result.details);
}

/**
 * Parses a GraphQL input with the REST transport's zod schema, so both transports refuse exactly
 * the same inputs with the same rules. Throws `validation_error` naming the first failing fields.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, where: string): z.infer<S> {
  const result = schema.safeParse(withoutNulls(input));
  if (result.success) return result.data;
  const detail = result.error.issues.slice(0, 5).map((i) => `${[where, ...i.path.map(String)].join('.')}: ${i.message}`).join('; ');
  throw graphqlError('validation_error', `Invalid input: ${detail}`);
}

/** GraphQL's explicit nulls of optional input fields mean "absent", as a missing JSON member does in REST. */
function withoutNulls(input: unknown): unknown {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return input;
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));
}

/** How an error is reported: the code, and whether the original message may be shown. */
function classify(code: unknown, original: unknown): { code: GraphqlErrorCode; internal: boolean } {
  if (typeof code === 'string' && GRAPHQL_ERROR_CODES.has(code)) return { code: code as GraphqlErrorCode, internal: code === 'internal_error' };
  if (typeof code === 'string' && code in FRAMEWORK_ERRORS) {
    const mapped = FRAMEWORK_ERRORS[code as ApolloServerErrorCode];
    return { code: mapped, internal: mapped === 'internal_error' };
  }
  // No code: graphql-js's own parse, validation and variable errors have no cause; a resolver's
  // unexpected throw (a bug or an infrastructure fault) does, and must not leak.
  const internal = original !== undefined && !(original instanceof GraphQLError);
  return { code: internal ? 'internal_error' : 'validation_error', internal };
}

/**
 * The one error formatter of both transports (docs/decisions.md § Errors: shapes per route family and § GraphQL): `extensions.code` is a REST code,
 * unexpected faults become `internal_error` with a fixed message (logged through `log`), and
 * stack traces appear only when `development` is set.
 */
export function formatGraphqlError(
  formatted: GraphQLFormattedError,
  error: unknown,
  development: boolean,
  log: (error: unknown) => void,
): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  const cause = error instanceof GraphQLError ? error.originalError : undefined;
  const { code, internal } = classify(formatted.extensions?.code, cause ?? (original !== error ? original : undefined));
  if (internal) log(original);
  const details = formatted.extensions?.details;
  const stacktrace = development ? formatted.extensions?.stacktrace ?? (original instanceof Error ? original.stack?.split('\n') : undefined) : undefined;
  return {
    message: internal ? 'Internal error' : formatted.message,
    ...(formatted.locations ? { locations: formatted.locations } : {}),
    ...(formatted.path ? { path: formatted.path } : {}),
    extensions: { code, ...(details ? { details } : {}), ...(stacktrace ? { stacktrace } : {}) },
  };
}
