import type { ApolloServerPlugin } from '@apollo/server';
import { Kind, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import { rateLimitedMessage, rateLimitHeaders, type RateLimits } from '../access/rate-limits';
import type { GraphqlContext } from './graphql-context';
import { graphqlError } from './graphql-errors';

/**
 * How many root fields a mutation runs: aliases count one each, and fields reached through inline
 * fragments and fragment spreads on the root count too (`__typename` does not run anything).
 * `@skip`/`@include` are not evaluated: a field written is a field paid for. Pure.
 */
export function mutationFieldCount(document: DocumentNode, operation: OperationDefinitionNode): number {
  if (operation.operation !== 'mutation') return 0;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const count = (set: SelectionSetNode, seen: ReadonlySet<string>): number => set.selections.reduce((total, selection) => {
    if (selection.kind === Kind.FIELD) return total + (selection.name.value === '__typename' ? 0 : 1);
    if (selection.kind === Kind.INLINE_FRAGMENT) return total + count(selection.selectionSet, seen);
    const fragment = fragments.get(selection.name.value);
    // Validation refuses unknown and cyclic spreads; `seen` only keeps this count finite before it does.
    if (!fragment || seen.has(fragment.name.value)) return total;
    return total + count(fragment.selectionSet, new Set([...seen, fragment.name.value]));
  }, 0);
  return count(operation.selectionSet, new Set());
}

/**
 * Every mutation field draws one point of the key's budget (docs/decisions.md § Rate limits and
 * abuse limits): the access gate already counted the request as one, so this draws the rest once
 * the operation is known, before anything runs. When they do not fit, the whole operation is
 * refused with 429 `rate_limited` and `Retry-After` (seconds), and none of its fields runs.
 */
export function mutationBudgetPlugin(rateLimits: RateLimits): ApolloServerPlugin<GraphqlContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, operation, contextValue, response }) {
          const fields = operation ? mutationFieldCount(document, operation) : 0;
          if (fields <= 1) return;
          const decision = await rateLimits.consume(contextValue.principal, fields - 1);
          for (const [name, value] of Object.entries(rateLimitHeaders(decision))) response.http.headers.set(name, value);
          if (!decision.allowed) throw graphqlError('rate_limited', rateLimitedMessage(decision), undefined, 429);
        },
      };
    },
  };
}
