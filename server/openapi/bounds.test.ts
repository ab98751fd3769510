import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { declaredLists } from '../core/lists';
import { openApiDocument } from './document';
// Loading the desk loads every area, and with it every list it declares.
import '../start';
import { documentedRules } from './rules';

/**
 * One source for each rule: a bound lives in a domain constant and reaches the document and the
 * routes' validation through rules.ts (apply-bounds.ts at `npm run gen`); an enum comes from the
 * domain's TypeScript type. These tests fail when the served document and the domain disagree, or
 * when a controller writes a bound by hand again.
 */

interface Parameter {
  name: string;
  in: string;
  schema?: Record<string, unknown> & { minimum?: number; maximum?: number; default?: unknown };
}
interface Operation {
  operationId?: string;
  parameters?: Parameter[];
}

const operations = (): Operation[] =>
  Object.values(openApiDocument.paths as Record<string, Record<string, Operation>>).flatMap((item) => Object.values(item));

type Node = Record<string, unknown> | undefined;
const schemas = () => (openApiDocument.components as { schemas: Record<string, Record<string, unknown>> }).schemas;
/** Follows a `$ref` to its component schema. */
const deref = (node: Node): Node => (typeof node?.$ref === 'string' ? schemas()[node.$ref.split('/').pop() as string] : node);

/** `Schema.prop.prop` (array items and $refs followed; `items` names the items) or `operationId?param`. */
function schemaAt(pointer: string): Record<string, unknown> {
  if (pointer.includes('?')) {
    const [operationId, name] = pointer.split('?');
    const op = operations().find((o) => o.operationId === operationId);
    return op?.parameters?.find((p) => p.name === name && p.in === 'query')?.schema ?? {};
  }
  const [schema, ...props] = pointer.split('.');
  let node = deref(schemas()[schema]);
  for (const prop of props) {
    const next = prop === 'items' ? node?.items : ((node?.properties as Record<string, Node> | undefined)?.[prop] ?? (node?.items as Node));
    node = deref(next as Node);
  }
  return node ?? {};
}

describe('documented bounds match the domain rules', () => {
  it('every declared list documents its limit default and bounds (1..max)', () => {
    const lists = declaredLists();
    const byId = new Map(operations().map((op) => [op.operationId, op]));
    for (const list of lists) {
      const op = byId.get(list.operationId);
      expect(op, `operation ${list.operationId}`).toBeDefined();
      const limit = op?.parameters?.find((p) => p.name === 'limit' && p.in === 'query');
      expect(limit?.schema, `${list.operationId} limit`).toMatchObject({ minimum: 1, maximum: list.maxLimit, default: list.defaultLimit });
      expect(op?.parameters?.some((p) => p.name === 'cursor' && p.in === 'query'), `${list.operationId} cursor`).toBe(true);
    }
  });

  it('every documented rule matches its domain constant', () => {
    for (const rule of documentedRules) {
      const node = schemaAt(rule.at);
      if (rule.enum && rule.anyOrder) expect([...(node.enum as string[])].sort(), rule.at).toEqual([...rule.enum].sort());
      else if (rule.enum) expect(node.enum, rule.at).toEqual([...rule.enum]);
      for (const key of ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'pattern', 'default'] as const) {
        if (rule[key] !== undefined) expect(node[key], `${rule.at} ${key}`).toBe(rule[key]);
      }
    }
  });
});

describe('bounds are written once', () => {
  const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../api');
  const sources = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const file = path.join(dir, e.name);
      if (e.isDirectory()) return sources(file);
      return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [file] : [];
    });

  it('no controller writes a numeric bound as a JSDoc tag (rules.ts holds them, from the domain constants)', () => {
    const tags: string[] = [];
    for (const file of sources(apiDir)) {
      fs.readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/@(minimum|maximum|minLength|maxLength|minItems|maxItems)\b/.test(line)) tags.push(`${path.relative(apiDir, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(tags).toEqual([]);
  });
});
