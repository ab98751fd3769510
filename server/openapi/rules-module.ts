/** renderer/src/api/rules.gen.ts: the API's enums and bounds as values, so the UI never copies a rule by hand. */

interface JsonSchema {
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  [key: string]: unknown;
}
export interface OpenApiDoc {
  paths?: Record<string, Record<string, { operationId?: string; parameters?: { in: string; name: string; schema?: JsonSchema }[] }>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

const BOUND_KEYS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'pattern', 'default'];

/**
 * The bounds of a schema, looking through nullable wrappers (`anyOf: [X, null]`) and `$ref`s to
 * named schemas (e.g. an array of `FocusTagInput`); `items` nests the bounds of array items.
 */
function boundsOf(schema: JsonSchema | undefined, schemas: Record<string, JsonSchema>): Record<string, unknown> | null {
  if (!schema) return null;
  const out: Record<string, unknown> = {};
  const visit = (s: JsonSchema) => {
    if (typeof s.$ref === 'string') {
      const target = schemas[s.$ref.replace('#/components/schemas/', '')];
      if (target && !target.properties) visit(target);
      return;
    }
    for (const key of BOUND_KEYS) if (key in s) out[key] = s[key];
    for (const member of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) visit(member);
    const items = boundsOf(s.items, schemas);
    if (items) out.items = items;
  };
  visit(schema);
  return Object.keys(out).length ? out : null;
}

/** SignalKind -> SIGNAL_KIND, HTTPStatus -> HTTP_STATUS. */
const constantCase = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toUpperCase();

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
const literal = (value: unknown) => JSON.stringify(value, null, 2);

export function rulesModule(doc: OpenApiDoc): string {
  const schemas = doc.components?.schemas ?? {};
  const enums: string[] = [];
  const limits: Record<string, Record<string, unknown>> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    if (schema.enum) enums.push(`export const ${constantCase(name)} = ${JSON.stringify(schema.enum)} as const;`);
    for (const [prop, propSchema] of Object.entries(schema.properties ?? {})) {
      const bounds = boundsOf(propSchema, schemas);
      if (bounds) (limits[name] ??= {})[prop] = bounds;
    }
  }
  const query: Record<string, Record<string, unknown>> = {};
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(operations)) {
      if (!op?.operationId) continue;
      for (const param of op.parameters ?? []) {
        const bounds = param.in === 'query' ? boundsOf(param.schema, schemas) : null;
        if (bounds) (query[lowerFirst(op.operationId)] ??= {})[param.name] = bounds;
      }
    }
  }
  return [
    '',
    '/** Every enum of components.schemas, in the API\'s order. */',
    ...enums,
    '',
    '/** Bounds of schema properties: `LIMITS.NewSignalBody.title.maxLength`; `items` holds the bounds of array items. */',
    `export const LIMITS = ${literal(limits)} as const;`,
    '',
    '/** Bounds and defaults of query parameters per operation: `QUERY.listSignals.limit.maximum`. */',
    `export const QUERY = ${literal(query)} as const;`,
    '',
  ].join('\n');
}

