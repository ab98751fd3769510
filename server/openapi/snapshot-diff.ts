/**
 * What changed between two JSON documents, as short lines a reader can act on: the paths whose
 * values were added, removed or changed, and the objects whose keys kept their values but moved.
 * The OpenAPI snapshot test reports with it instead of a diff of a megabyte of text.
 */

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: Json) => {
  const text = JSON.stringify(v);
  return text === undefined ? 'undefined' : text.length > 120 ? `${text.slice(0, 117)}...` : text;
};
/** A JSON Pointer segment (RFC 6901), so `/paths/~1api~1v1~1tasks/get` names one path item. */
const segment = (key: string | number) => String(key).replace(/~/g, '~0').replace(/\//g, '~1');

export function jsonChanges(before: Json, after: Json, limit = 40): string[] {
  const out: string[] = [];
  const walk = (a: Json, b: Json, at: string) => {
    if (out.length >= limit) return;
    if (isObject(a) && isObject(b)) {
      const aKeys = Object.keys(a);
      const bKeys = Object.keys(b);
      for (const key of aKeys) if (!(key in b)) out.push(`removed ${at}/${segment(key)}: ${show(a[key])}`);
      for (const key of bKeys) if (!(key in a)) out.push(`added   ${at}/${segment(key)}: ${show(b[key])}`);
      for (const key of aKeys) if (key in b) walk(a[key], b[key], `${at}/${segment(key)}`);
      const common = (keys: string[], other: Record<string, Json>) => keys.filter((k) => k in other);
      const aOrder = common(aKeys, b);
      const bOrder = common(bKeys, a);
      if (aOrder.join('\u0000') !== bOrder.join('\u0000') && out.length < limit) {
        out.push(`order   ${at || '/'}: keys ${show(aOrder)} now ${show(bOrder)}`);
      }
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length) {
        out.push(`changed ${at}: ${a.length} items, now ${b.length}: ${show(a)} -> ${show(b)}`);
        return;
      }
      a.forEach((item, i) => walk(item, b[i], `${at}/${i}`));
      return;
    }
    if (!Object.is(a, b)) out.push(`changed ${at || '/'}: ${show(a)} -> ${show(b)}`);
  };
  walk(before, after, '');
  return out.slice(0, limit);
}
