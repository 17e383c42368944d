/**
 * Whole-object examples for the OpenAPI document (docs/api.md): every object schema in
 * `components`, and every request and response body, gets an `example` composed from the examples
 * its fields declare (a field with none shows its first enum value, or a value of its type).
 * Written examples are kept; composed ones use only what the fields declare, so an amount shows
 * at its currency's scale and an id or date as written on the field.
 */
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An example of `schema`, resolving `$ref` into `components`; `depth` stops a cycle. */
function exampleOf(schema: unknown, components: Json, depth = 0): unknown {
  if (!isObject(schema) || depth > 8) return undefined;
  if (schema.example !== undefined) return schema.example;
  if (typeof schema.$ref === 'string') return exampleOf(components[schema.$ref.split('/').pop()!], components, depth + 1);
  if (Array.isArray(schema.allOf)) {
    // Later parts narrow earlier ones (an error shape, then its codes): merge in order.
    const parts = schema.allOf.map((part) => exampleOf(part, components, depth + 1)).filter(isObject);
    return parts.length > 0 ? Object.assign({}, ...parts) : undefined;
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) return exampleOf(options.find((o) => !(isObject(o) && o.type === 'null')), components, depth + 1);
  }
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'array') {
    const item = exampleOf(schema.items, components, depth + 1);
    return item === undefined ? [] : [item];
  }
  if (type === 'object' || isObject(schema.properties)) {
    const out: Json = {};
    for (const [name, field] of Object.entries((schema.properties as Json | undefined) ?? {})) {
      const value = exampleOf(field, components, depth + 1);
      if (value !== undefined) out[name] = value;
    }
    return out;
  }
  if (type === 'boolean') return true;
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 1;
  if (type === 'string') return schema.format === 'uuid' ? '3b8f7a52-1c9e-4d0b-a6f3-92e4c5d7b018' : undefined;
  return undefined;
}

/** Adds a whole-object `example` where one is missing: component schemas, then request and response bodies. */
export function addExamples(document: Json): void {
  const components = ((document.components as Json | undefined)?.schemas as Json | undefined) ?? {};
  for (const schema of Object.values(components)) {
    if (isObject(schema) && schema.example === undefined) {
      const example = exampleOf(schema, components);
      if (example !== undefined) schema.example = example;
    }
  }
  const bodies: Json[] = [];
  for (const section of ['paths', 'webhooks'] as const) {
    for (const item of Object.values((document[section] as Json | undefined) ?? {})) {
      for (const operation of Object.values(item as Json)) {
        if (!isObject(operation)) continue;
        const request = (operation.requestBody as Json | undefined)?.content as Json | undefined;
        if (request) bodies.push(...Object.values(request).filter(isObject));
        for (const response of Object.values((operation.responses as Json | undefined) ?? {})) {
          const content = isObject(response) ? (response.content as Json | undefined) : undefined;
          if (content) bodies.push(...Object.values(content).filter(isObject));
        }
      }
    }
  }
  for (const media of bodies) {
    if (media.example !== undefined || media.examples !== undefined) continue;
    const example = exampleOf(media.schema, components);
    if (example !== undefined) media.example = example;
  }
}
