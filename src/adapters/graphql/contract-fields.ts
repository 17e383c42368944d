import type { z } from 'zod';

/**
 * One declaration per input field: a GraphQL input or argument class mirrors the zod schema of
 * src/adapters/contract that validates it (docs/decisions.md § GraphQL). The schema owns each
 * field's description and whether it may be absent; the class adds only its GraphQL type, and
 * `FieldDrift` (src/adapters/contract/schema-ties.ts) makes `tsc` name every field on which the
 * two disagree.
 */

/** Object schemas whose fields GraphQL mirrors. */
type ObjectSchema = z.ZodObject;

/** Wrappers that carry a field's metadata on their inner schema too, as zod-openapi reads it. */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional']);

/**
 * The description in a field schema's zod metadata, looking through optional, default and similar
 * wrappers (outermost first, as zod-openapi does), or undefined when none has one.
 */
export function descriptionOf(field: z.ZodType): string | undefined {
  let current: z.ZodType | undefined = field;
  while (current) {
    const description = current.meta()?.description;
    if (description !== undefined) return description;
    const def = current.def as { type: string; innerType?: z.ZodType };
    current = WRAPPERS.has(def.type) ? def.innerType : undefined;
  }
  return undefined;
}

/**
 * Options of `@Field` or `@Arg` for field `key` of `schema`: its description from the zod
 * metadata, and `nullable` when zod accepts it absent. A field with a GraphQL default
 * (`defaultValue`) stays non-null, as a defaulted argument is never null.
 */
export function fieldOf<S extends ObjectSchema>(
  schema: S,
  key: keyof S['shape'] & string,
  options: { readonly defaultValue?: unknown } = {},
): { description?: string; nullable?: boolean; defaultValue?: unknown } {
  const field = schema.shape[key] as z.ZodType;
  const description = descriptionOf(field);
  const optional = field.safeParse(undefined).success;
  return {
    ...(description !== undefined ? { description } : {}),
    ...(options.defaultValue !== undefined ? { defaultValue: options.defaultValue } : optional ? { nullable: true } : {}),
  };
}
