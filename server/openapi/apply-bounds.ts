import type { Tsoa } from '@tsoa/runtime';
import type { DocumentedRule } from './rules';

/**
 * The bounds of server/openapi/rules.ts written into tsoa's metadata before it emits the routes
 * (run-time validation) and the OpenAPI document (and from it the renderer's rules), so a domain
 * constant is the one place a bound is written. A bound also written by hand as a JSDoc tag on
 * its target is an error: two copies would drift.
 */

export const BOUND_KEYS = ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'pattern'] as const;
export type BoundKey = (typeof BOUND_KEYS)[number];

type Holder = { validators: Tsoa.Validators };

/** `Schema.prop`, `Schema.prop.items`, `Schema` (an alias) or `operationId?param` in the metadata. */
function holderAt(metadata: Tsoa.Metadata, at: string): Holder {
  const types = metadata.referenceTypeMap;
  const alias = (type: Tsoa.Type | undefined): Holder | undefined => {
    const ref = type && 'refName' in type ? types[type.refName] : undefined;
    return ref?.dataType === 'refAlias' ? ref : undefined;
  };
  if (at.includes('?')) {
    const [operationId, name] = at.split('?');
    const method = metadata.controllers
      .flatMap((c) => c.methods)
      .find((m) => (m.operationId ?? m.name.charAt(0).toUpperCase() + m.name.slice(1)) === operationId);
    const param = method?.parameters.find((p) => p.in === 'query' && p.name === name);
    if (!param) throw new Error(`bounds: no query parameter ${at}`);
    return param;
  }
  const [schema, prop, items, ...rest] = at.split('.');
  const type = types[schema];
  if (!type || rest.length > 0 || (items !== undefined && items !== 'items')) throw new Error(`bounds: no schema ${at}`);
  if (prop === undefined) {
    if (type.dataType !== 'refAlias') throw new Error(`bounds: ${at} is not an alias; name a property`);
    return type;
  }
  const property = type.dataType === 'refObject' ? type.properties.find((p) => p.name === prop) : undefined;
  if (!property) throw new Error(`bounds: no property ${at}`);
  if (items === undefined) return alias(property.type) ?? property;
  // Items of an inline array cannot carry bounds in tsoa; an alias of the item type can.
  const element = property.type.dataType === 'array' ? alias((property.type as Tsoa.ArrayType).elementType) : undefined;
  if (!element) throw new Error(`bounds: the items of ${schema}.${prop} are not an alias type`);
  return element;
}

export function applyBounds(metadata: Tsoa.Metadata, rules: readonly DocumentedRule[]): void {
  const written = new Map<Holder, { by: Map<BoundKey, string>; validators: Tsoa.Validators }>();
  const problems: string[] = [];
  for (const rule of rules) {
    const keys = Object.keys(rule).filter((k): k is BoundKey => (BOUND_KEYS as readonly string[]).includes(k));
    if (keys.length === 0) continue;
    const holder = holderAt(metadata, rule.at);
    const mine = written.get(holder) ?? { by: new Map<BoundKey, string>(), validators: {} };
    written.set(holder, mine);
    for (const key of keys) {
      const value = rule[key];
      const message = rule.messages?.[key];
      const earlier = mine.by.get(key);
      if (earlier !== undefined) {
        // Several rules may reach one alias (e.g. every field of that type); they must agree.
        const set = mine.validators[key];
        if (set?.value !== value || set?.errorMsg !== message) problems.push(`${rule.at} ${key}: ${String(value)}, but ${earlier} set ${String(set?.value)}`);
        continue;
      }
      if (holder.validators[key]) {
        problems.push(`${rule.at} ${key}: written by hand (a JSDoc tag) and in server/openapi/rules.ts; remove the tag`);
        continue;
      }
      mine.validators[key] = message === undefined ? { value } : { errorMsg: message, value };
      mine.by.set(key, rule.at);
    }
  }
  if (problems.length > 0) throw new Error(`bounds:\n  ${problems.join('\n  ')}`);
  // Type markers (isInt) first, then the rules' bounds, then hand-written keywords left (a URL's
  // pattern): the order tsoa lists them in the routes and the document.
  for (const [holder, mine] of written) {
    const entries = Object.entries(holder.validators);
    const markers = Object.fromEntries(entries.filter(([key]) => key.startsWith('is')));
    holder.validators = { ...markers, ...mine.validators, ...Object.fromEntries(entries.filter(([key]) => !key.startsWith('is'))) };
  }
}
