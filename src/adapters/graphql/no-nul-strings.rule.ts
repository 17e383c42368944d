import { GraphQLError, type ValidationRule } from 'graphql';

/** The message of every NUL refusal, on both transports. */
const NUL_MESSAGE = 'Strings must not contain NUL characters';

/**
 * Validation rule: refuses a document whose string literals hold a NUL character (written as the
 * escape \u0000), which PostgreSQL text cannot store; variables are checked by each transport.
 * Reported as `validation_error`, like REST's refusal of the same input (docs/decisions.md § Errors: shapes per route family).
 */
export const noNulStrings: ValidationRule = (context) => ({
  StringValue(node) {
    if (node.value.includes('\u0000')) context.reportError(new GraphQLError(NUL_MESSAGE, { nodes: node, extensions: { code: 'validation_error' } }));
  },
});
