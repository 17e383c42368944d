import {
  getVariableValues, GraphQLError, Kind,
  type DocumentNode, type FragmentDefinitionNode, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode,
} from 'graphql';

/**
 * Checks graphql-ws would otherwise discover too late, after validation, where a failure either
 * travels as `next` + `complete` (bad variables: the client's `error` callback never fires) or
 * crashes graphql-js's subscribe (a root field dropped by @skip/@include leaves none: close
 * 4500). Returns the errors to answer with an `error` message (code `validation_error`), or
 * undefined when the subscription may start.
 */
export function subscriptionProblems(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>> | null | undefined,
): GraphQLError[] | undefined {
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, { maxErrors: 5 });
  if (coerced.errors) return coerced.errors.map((e) => new GraphQLError(e.message, { nodes: e.nodes, extensions: { code: 'validation_error' } }));
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  if (conditionalAtRoot(operation.selectionSet, fragments, new Set())) {
    return [new GraphQLError('A subscription\'s root field cannot carry @skip or @include', { extensions: { code: 'validation_error' } })];
  }
  return undefined;
}

/** True when a root-level selection (directly or through root-level fragments) has @skip or @include. */
function conditionalAtRoot(set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, seen: Set<string>): boolean {
  return set.selections.some((selection) => {
    if (selection.directives?.some((d) => d.name.value === 'skip' || d.name.value === 'include')) return true;
    if (selection.kind === Kind.INLINE_FRAGMENT) return conditionalAtRoot(selection.selectionSet, fragments, seen);
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      if (!fragment || seen.has(name)) return false;
      seen.add(name);
      return conditionalAtRoot(fragment.selectionSet, fragments, seen);
    }
    return false;
  });
}
