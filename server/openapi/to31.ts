/**
 * Converts the OpenAPI 3.0 document tsoa 6 emits into OpenAPI 3.1, faithfully:
 * `nullable` becomes a `null` type (or an anyOf with null around a $ref), boolean
 * exclusiveMinimum/Maximum become numbers, and a schema `example` becomes `examples`.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

const isObj = (v: Json | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

// Keys whose value is a schema, a list of schemas, or a map of schemas.
const SCHEMA_KEYS = new Set(['schema', 'items', 'additionalProperties', 'not']);
const SCHEMA_LIST_KEYS = new Set(['allOf', 'anyOf', 'oneOf']);
const SCHEMA_MAP_KEYS = new Set(['properties', 'schemas']);
// Keys whose value is data (examples, defaults, enum members), copied as it is: an example
// object may well contain a key named `properties` or `nullable`.
const DATA_KEYS = new Set(['example', 'examples']);
const SCHEMA_DATA_KEYS = new Set(['example', 'default', 'enum', 'const']);

function convertSchema(schema: Obj): Obj {
  const out: Obj = {};
  for (const [key, value] of Object.entries(schema)) out[key] = SCHEMA_DATA_KEYS.has(key) ? value : convertAny(value, key);

  if (out.exclusiveMinimum === true && typeof out.minimum === 'number') {
    out.exclusiveMinimum = out.minimum;
    delete out.minimum;
  } else if (typeof out.exclusiveMinimum === 'boolean') delete out.exclusiveMinimum;
  if (out.exclusiveMaximum === true && typeof out.maximum === 'number') {
    out.exclusiveMaximum = out.maximum;
    delete out.maximum;
  } else if (typeof out.exclusiveMaximum === 'boolean') delete out.exclusiveMaximum;

  if ('example' in out) {
    out.examples = [out.example];
    delete out.example;
  }

  if (out.nullable === true) {
    delete out.nullable;
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'] };
    if (Array.isArray(out.type)) return out.type.includes('null') ? out : { ...out, type: [...out.type, 'null'] };
    return { anyOf: [out, { type: 'null' }] };
  }
  delete out.nullable;
  return out;
}

function convertAny(value: Json, key?: string): Json {
  if (key && DATA_KEYS.has(key)) return value;
  if (key && SCHEMA_LIST_KEYS.has(key) && Array.isArray(value)) return value.map((s) => (isObj(s) ? convertSchema(s) : s));
  if (Array.isArray(value)) return value.map((v) => convertAny(v));
  if (!isObj(value)) return value;
  if (key && SCHEMA_KEYS.has(key)) return convertSchema(value);
  if (key && SCHEMA_MAP_KEYS.has(key)) {
    const out: Obj = {};
    for (const [k, v] of Object.entries(value)) out[k] = isObj(v) ? convertSchema(v) : v;
    return out;
  }
  const out: Obj = {};
  for (const [k, v] of Object.entries(value)) out[k] = convertAny(v, k);
  return out;
}

export function toOpenApi31(doc: Obj): Obj {
  if (typeof doc.openapi !== 'string' || !doc.openapi.startsWith('3.0')) {
    throw new Error(`expected an OpenAPI 3.0 document, got ${String(doc.openapi ?? doc.swagger)}`);
  }
  const converted = convertAny(doc) as Obj;
  converted.openapi = '3.1.0';
  return converted;
}
