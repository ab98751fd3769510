import fc from 'fast-check';

/**
 * Spec-driven request fuzzing: arbitraries built from the OpenAPI document, so a route is fuzzed
 * the day it lands. Values are mostly near the schema (so validation is passed and the rules behind
 * it run) and often hostile: wrong types, bounds plus or minus one, huge and odd strings, unknown
 * fields, deep nesting. Fields that name a link or a file get only loopback or missing targets:
 * the fuzz never sends traffic off this machine.
 */

export type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
};

export interface FuzzContext {
  schemas: Record<string, Schema>;
  /** Ids of rows that exist, mixed into id-like values so the rules behind a lookup run too. */
  ids: string[];
  /** Real ids by kind (`task`, `user`, `tag` ...): a field or parameter naming a kind gets ids of that kind. */
  pools?: Partial<Record<string, string[]>>;
  /** The desk's "now": times near it are the ones rules accept (a pause in the future, a since in the past). */
  now?: Date;
  /** Valid values for fields no schema describes well enough (an export file, a timezone name), by field name. */
  values?: Partial<Record<string, unknown[]>>;
}

/** Fields whose last word names another kind than the one they hold. */
const KIND_ALIASES: Record<string, string> = { reviewer: 'user', author: 'user', assignee: 'user', owner: 'user', token: 'ingestToken', parent: 'comment' };
/** Fields that hold tags. */
const TAG_FIELD = /^(tags?|from|to|focusTags)$/;

/**
 * The kind of id a field or parameter names: the last word before `Id`/`Ids` (`blockedByTaskIds`
 * → task, `asUserId` → user), tags for tag fields; null for anything else (`id` alone says
 * nothing: its path does, see the fuzz test).
 */
export function idKindOf(field: string): string | null {
  if (TAG_FIELD.test(field)) return 'tag';
  const m = /([A-Z]?[a-z]+)Ids?$/.exec(field);
  if (!m) return null;
  const word = m[1].toLowerCase();
  return KIND_ALIASES[word] ?? word;
}

/** Real ids for `field`: of its kind when the context has them, else any real id for id-like fields. */
export function idsFor(ctx: FuzzContext, field: string): string[] {
  const kind = idKindOf(field);
  const pool = kind ? ctx.pools?.[kind] : undefined;
  if (pool && pool.length > 0) return pool;
  return /id$/i.test(field) ? ctx.ids : [];
}

/** Links the desk might fetch (or read, for file sources): loopback on the discard port, missing files, or not links at all. */
const SAFE_LINKS = ['http://127.0.0.1:9/feed.xml', 'file:///nonexistent/desk-fuzz.csv', '/nonexistent/desk-fuzz.json', 'https://localhost:9/a', 'http://[::1]:9/', 'ftp://127.0.0.1/x', 'not a link', '', 'http://', 'javascript:alert(1)'];
/** Files the desk might read: none that exist. */
const SAFE_PATHS = ['/nonexistent/desk-fuzz.csv', '/nonexistent/desk-fuzz.json', 'relative.csv', '', '/'];
const LINK_FIELD = /url|uri|href|link/i;
const PATH_FIELD = /^(path|filePath|file)$/;

/** Strings that break naive code: huge, control characters, unicode edge cases, injection-looking. */
export const oddString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000', '\n\t', '%', '_', "'; DROP TABLE signals; --", '../../etc/passwd', '%2e%2e%2f', '\ud800', '🚀'.repeat(50), 'Ω≈ç√', '1e400', 'NaN', 'null', '{}', '[]'),
  fc.integer({ min: 1, max: 3 }).map((n) => 'x'.repeat(10 ** (n + 2))),
);

/** Any JSON value, including the shapes validation must refuse. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, -0.5, 2 ** 31, 2 ** 53, Number.MAX_SAFE_INTEGER + 2, 1e300, '', [], {}),
  oddString,
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null)), { maxLength: 60 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.integer(), fc.string({ maxLength: 8 })), { maxKeys: 5 }),
  fc.integer({ min: 2, max: 3 }).map((n) => nested(10 ** n)),
);

/** `[[[...]]]` `depth` deep: stack-hungry validators overflow on it. */
export function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function resolve(schema: Schema | undefined, ctx: FuzzContext): Schema {
  let s = schema ?? {};
  for (let i = 0; s.$ref && i < 20; i++) s = ctx.schemas[s.$ref.replace('#/components/schemas/', '')] ?? {};
  return s;
}

/** Numbers at and around the documented bounds, plus a few ordinary ones. */
function numberNear(s: Schema, integer: boolean): fc.Arbitrary<number> {
  const edges = [s.minimum, s.maximum].filter((v): v is number => typeof v === 'number').flatMap((v) => [v - 1, v, v + 1]);
  const base = integer ? fc.integer({ min: -5, max: 2000 }) : fc.double({ min: -1e6, max: 1e6, noNaN: true });
  return edges.length > 0 ? fc.oneof(fc.constantFrom(...edges), base) : base;
}

function stringNear(s: Schema, field: string, ctx: FuzzContext): fc.Arbitrary<string> {
  if (LINK_FIELD.test(field)) return fc.constantFrom(...SAFE_LINKS);
  if (PATH_FIELD.test(field)) return fc.constantFrom(...SAFE_PATHS);
  const lengths = [s.minLength, s.maxLength].filter((v): v is number => typeof v === 'number').flatMap((v) => [v - 1, v, v + 1]).filter((v) => v >= 0);
  const options: fc.Arbitrary<string>[] = [fc.string({ maxLength: 30 }), oddString];
  if (lengths.length > 0) options.push(fc.constantFrom(...lengths).map((n) => 'a'.repeat(n)));
  if (s.format === 'date-time' || /At$|since/i.test(field)) options.push(fc.constantFrom('2026-03-10', '2026-03-12T09:00:00Z', '2027-01-01T00:00:00Z', '2026-02-30', 'yesterday'));
  const ids = idsFor(ctx, field);
  if (ids.length > 0) options.push(fc.constantFrom(...ids));
  return fc.oneof(...options);
}

/** A value for `schema`: near-valid most of the time, hostile some of the time. */
export function valueFor(schema: Schema | undefined, ctx: FuzzContext, field = '', depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema, ctx);
  if (depth > 4) return hostileValue;
  return fc.oneof({ arbitrary: nearValue(s, ctx, field, depth), weight: 4 }, { arbitrary: hostileValue, weight: 1 });
}

function nearValue(s: Schema, ctx: FuzzContext, field: string, depth: number): fc.Arbitrary<unknown> {
  const variants = s.anyOf ?? s.oneOf;
  if (variants) return fc.oneof(...variants.map((v) => valueFor(v, ctx, field, depth + 1)));
  if (s.allOf) return valueFor(s.allOf[0], ctx, field, depth + 1);
  if (s.enum) return fc.oneof(fc.constantFrom(...s.enum), oddString);
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  const arbs = types.map((t): fc.Arbitrary<unknown> => {
    switch (t) {
      case 'integer':
        return numberNear(s, true);
      case 'number':
        return numberNear(s, false);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'string':
        return stringNear(s, field, ctx);
      case 'array': {
        const max = Math.min((s.maxItems ?? 5) + 1, 60);
        return fc.array(valueFor(s.items, ctx, field, depth + 1), { minLength: 0, maxLength: max });
      }
      case 'object':
        return objectFor(s, ctx, depth);
      default:
        return hostileValue;
    }
  });
  return arbs.length > 0 ? fc.oneof(...arbs) : hostileValue;
}

/** Objects with the required fields mostly present, optional ones sometimes, unknown ones rarely. */
function objectFor(s: Schema, ctx: FuzzContext, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries(s.properties ?? {});
  const required = new Set(s.required ?? []);
  const entries = props.map(([name, prop]) =>
    fc.tuple(fc.constant(name), valueFor(prop, ctx, name, depth + 1), fc.double({ min: 0, max: 1, noNaN: true })),
  );
  return fc.tuple(fc.tuple(...entries), fc.option(fc.tuple(oddString, hostileValue), { freq: 8 })).map(([values, extra]) => {
    const out: Record<string, unknown> = {};
    for (const [name, value, roll] of values) {
      // Required fields are dropped 1 time in 10, optional ones sent half the time.
      if (required.has(name) ? roll > 0.1 : roll > 0.5) out[name] = value;
    }
    if (extra) out[extra[0].slice(0, 40) || 'unknown'] = extra[1];
    return out;
  });
}

/** A path parameter: a real id (of `pool` when given) half the time, else odd text (encoded when sent). */
export function pathParam(ctx: FuzzContext, pool?: string[]): fc.Arbitrary<string> {
  const real = pool && pool.length > 0 ? pool : ctx.ids;
  return fc.oneof(
    { arbitrary: real.length > 0 ? fc.constantFrom(...real) : fc.constant('x'), weight: 3 },
    { arbitrary: fc.constantFrom('sig_missing', 'src_missing', '0', '-1', '..', '%00', ' '), weight: 1 },
    { arbitrary: oddString.filter((v) => v.length > 0), weight: 2 },
  );
}

/** A raw body that is not JSON, or is JSON of a shape no route takes. */
export const rawBody = fc.constantFrom('{', '{"a":', '[', '"text"', 'null', '123', 'true', '{"a":1}}', '\u0000', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}');

const WORDS = ['checkout', 'pricing', 'onboarding', 'review', 'weekly', 'mobile latency', 'Q3 plan', 'note'];
/** Links a valid body may carry: loopback on closed ports, so nothing leaves this machine and nothing answers. */
const VALID_LINKS = ['http://127.0.0.1:9/feed.xml', 'http://127.0.0.1:9/hooks', 'https://127.0.0.1:9/a'];
const HOUR = 3_600_000;

/** A string a rule would accept for `field`: a real id of its kind, a link, a time near now, an address, or words within the length bounds. */
function validString(s: Schema, field: string, ctx: FuzzContext): fc.Arbitrary<string> {
  const ids = idsFor(ctx, field);
  if (ids.length > 0) return fc.constantFrom(...ids);
  if (LINK_FIELD.test(field)) return fc.constantFrom(...VALID_LINKS);
  if (PATH_FIELD.test(field)) return fc.constantFrom(...SAFE_PATHS);
  if (/email/i.test(field) || s.format === 'email') return fc.constantFrom('fuzz@example.com', 'ops+desk@example.org');
  if (s.format === 'date-time' || s.format === 'date' || /At$|since|until|Date$/i.test(field)) {
    const now = (ctx.now ?? new Date('2026-03-10T12:00:00Z')).getTime();
    return fc.constantFrom(-48, -1, 1, 36, 24 * 10).map((h) => new Date(now + h * HOUR).toISOString());
  }
  const min = s.minLength ?? 1;
  const max = Math.max(min, Math.min(s.maxLength ?? 40, 60));
  return fc.constantFrom(...WORDS).map((w) => (w.length >= min ? w : w.padEnd(min, 'x')).slice(0, max));
}

/**
 * A value that follows `schema` (types, enums, bounds, required fields), with real ids where a
 * field names a kind: the requests that get past validation, so the rules and writes behind it run.
 */
export function validValue(schema: Schema | undefined, ctx: FuzzContext, field = '', depth = 0): fc.Arbitrary<unknown> {
  const known = ctx.values?.[field];
  if (known && known.length > 0) return fc.constantFrom(...known);
  const s = resolve(schema, ctx);
  if (depth > 6) return fc.constant(null);
  const variants = s.anyOf ?? s.oneOf;
  if (variants) return fc.oneof(...variants.map((v) => validValue(v, ctx, field, depth + 1)));
  if (s.allOf) return validValue(s.allOf[0], ctx, field, depth + 1);
  if (s.enum) return fc.constantFrom(...s.enum);
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  const arbs = types.map((t): fc.Arbitrary<unknown> => {
    switch (t) {
      case 'integer': {
        const min = s.minimum ?? 0;
        return fc.integer({ min, max: s.maximum ?? min + 100 });
      }
      case 'number': {
        const min = s.minimum ?? 0;
        return fc.double({ min, max: s.maximum ?? min + 100, noNaN: true, noDefaultInfinity: true });
      }
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'string':
        return validString(s, field, ctx);
      case 'array':
        return fc.array(validValue(s.items, ctx, field, depth + 1), { minLength: s.minItems ?? 0, maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 3, 5)) });
      case 'object': {
        const required = new Set(s.required ?? []);
        const entries = Object.entries(s.properties ?? {}).map(([name, prop]) => fc.tuple(fc.constant(name), validValue(prop, ctx, name, depth + 1), fc.boolean()));
        return fc.tuple(...entries).map((values) => Object.fromEntries(values.filter(([name, , send]) => required.has(name) || send).map(([name, value]) => [name, value])));
      }
      default:
        return fc.constant(null);
    }
  });
  return arbs.length > 0 ? fc.oneof(...arbs) : fc.constant({});
}
