import { GraphQLError } from 'graphql';
import { DecimalScalar } from '../../src/adapters/graphql/decimal.scalar';
import { formatGraphqlError } from '../../src/adapters/graphql/graphql-errors';

describe('GraphQL error formatting (both transports) and the Decimal scalar', () => {
  const logged: unknown[] = [];
  const log = (e: unknown) => void logged.push(e);
  beforeEach(() => void (logged.length = 0));

  it('keeps a use-case code and message, drops everything else', () => {
    const error = new GraphQLError('Payment pay_x not found', { path: ['payment'], extensions: { code: 'not_found', http: { status: 404 } } });
    expect(formatGraphqlError(error.toJSON(), error, false, log)).toEqual({
      message: 'Payment pay_x not found', path: ['payment'], extensions: { code: 'not_found' },
    });
    expect(logged).toEqual([]);
  });

  it('masks an unexpected fault as internal_error, logs it, and shows its stack only in development', () => {
    const fault = new Error('connection to 10.0.0.5 refused; password=hunter2');
    const wrapped = new GraphQLError(fault.message, { path: ['payment'], originalError: fault });
    const production = formatGraphqlError(wrapped.toJSON(), wrapped, false, log);
    expect(production).toEqual({ message: 'Internal error', path: ['payment'], extensions: { code: 'internal_error' } });
    expect(logged).toEqual([fault]);
    const development = formatGraphqlError(wrapped.toJSON(), wrapped, true, log);
    expect(development.message).toBe('Internal error');
    expect(development.extensions?.stacktrace).toEqual(expect.arrayContaining([expect.stringContaining('Error: connection')]));
    const apollo = formatGraphqlError({ message: 'boom', extensions: { code: 'INTERNAL_SERVER_ERROR', stacktrace: ['x'] } }, wrapped, false, log);
    expect(apollo).toEqual({ message: 'Internal error', extensions: { code: 'internal_error' } });
  });

  it("maps Apollo's and graphql-js's own errors to validation_error, keeping their message", () => {
    for (const code of ['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'INTROSPECTION_DISABLED']) {
      expect(formatGraphqlError({ message: 'why', extensions: { code } }, new GraphQLError('why'), false, log)).toEqual({
        message: 'why', extensions: { code: 'validation_error' },
      });
    }
    const coercion = new GraphQLError('Variable "$id" of required type "ID!" was not provided.');
    expect(formatGraphqlError(coercion.toJSON(), coercion, false, log).extensions).toEqual({ code: 'validation_error' });
  });

  it('Decimal: strings on the wire; string and number inputs; anything else refused', () => {
    expect(DecimalScalar.serialize('1500.00')).toBe('1500.00');
    expect(DecimalScalar.parseValue('12.115416')).toBe('12.115416');
    expect(DecimalScalar.parseValue(1500)).toBe('1500');
    for (const bad of ['1e5', '1,5', '', ' 1', NaN, Infinity, true, null, {}]) expect(() => DecimalScalar.parseValue(bad)).toThrow(GraphQLError);
  });
});
