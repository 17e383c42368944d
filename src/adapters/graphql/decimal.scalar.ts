import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';

const DECIMAL = /^-?\d+(\.\d+)?$/;

function decimalOf(value: unknown): string {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text === 'string' && DECIMAL.test(text)) return text;
  throw new GraphQLError(`Decimal must be a decimal number such as "1500.00", got ${JSON.stringify(value)}`, {
    extensions: { code: 'validation_error' },
  });
}

/**
 * `Decimal`: an exact decimal amount. Always a string on the wire in responses
 * ("1500.00", "12.115416"), so no client parses money as a float; inputs may be a string or an
 * integer or float literal, taken as written. Scale and range are the use cases' business.
 */
export const DecimalScalar = new GraphQLScalarType<string, string>({
  name: 'Decimal',
  description: 'Exact decimal amount; a string on the wire (e.g. "1500.00"). Inputs also accept number literals.',
  serialize: decimalOf,
  parseValue: decimalOf,
  parseLiteral(ast) {
    if (ast.kind === Kind.STRING || ast.kind === Kind.INT || ast.kind === Kind.FLOAT) return decimalOf(ast.value);
    throw new GraphQLError('Decimal must be a string or number literal', { extensions: { code: 'validation_error' } });
  },
});
