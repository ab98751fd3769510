import { describe, expect, it } from 'vitest';
import { declaredLists } from '../core/lists';
import { openApiDocument } from './document';
// Loading the desk loads every area, and with it every list it declares.
import '../start';
import { documentedRules } from './rules';

/**
 * One source for each rule: a bound or enum lives in the domain; the OpenAPI document repeats it
 * in tsoa annotations (which cannot reference constants). These tests fail when the two drift.
 */

interface Parameter {
  name: string;
  in: string;
  schema?: { minimum?: number; maximum?: number; default?: unknown };
}
interface Operation {
  operationId?: string;
  parameters?: Parameter[];
}

const operations = (): Operation[] =>
  Object.values(openApiDocument.paths as Record<string, Record<string, Operation>>).flatMap((item) => Object.values(item));

function schemaAt(pointer: string): Record<string, unknown> {
  const [schema, ...props] = pointer.split('.');
  let node = (openApiDocument.components as { schemas: Record<string, Record<string, unknown>> }).schemas[schema];
  for (const prop of props) node = (node?.properties as Record<string, Record<string, unknown>> | undefined)?.[prop] ?? (node?.items as Record<string, unknown>);
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
      for (const key of ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems'] as const) {
        if (rule[key] !== undefined) expect(node[key], `${rule.at} ${key}`).toBe(rule[key]);
      }
    }
  });
});
