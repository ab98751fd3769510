import { Validator } from '@seriousme/openapi-schema-validator';
import type express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, JSON_BODY_LIMIT, LARGE_BODY_LIMITS } from '../app';
import { startTestDesk, type TestDesk } from '../testing/desk';
import { openApiDocument } from './document';
import { addErrorResponses, DOCUMENTED_BODY_LIMIT, DOCUMENTED_LARGE_BODY_LIMITS } from './error-responses';
import { toOpenApi31 } from './to31';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- documents are walked key by key
type Obj = Record<string, any>;

/** A minimal 3.0 document around the given component schemas and path items. */
function doc30(schemas: Obj, paths: Obj = {}): Obj {
  return { openapi: '3.0.0', info: { title: 't', version: '1' }, paths, components: { schemas } };
}
const convert = (schemas: Obj, paths: Obj = {}) => toOpenApi31(doc30(schemas, paths)) as Obj;
const schemasOf = (schemas: Obj) => convert(schemas).components.schemas;

describe('toOpenApi31', () => {
  it('sets the version and refuses anything but 3.0', () => {
    expect(convert({}).openapi).toBe('3.1.0');
    expect(() => toOpenApi31({ openapi: '3.1.0', info: {}, paths: {} })).toThrow(/3\.0/);
    expect(() => toOpenApi31({ swagger: '2.0', info: {}, paths: {} })).toThrow(/2\.0/);
  });

  it('turns nullable into a null type', () => {
    const s = schemasOf({
      S: { type: 'string', nullable: true },
      N: { type: 'integer', nullable: false, minimum: 1 },
      E: { type: 'string', enum: ['none', 'pause'], nullable: true },
      R: { allOf: [{ $ref: '#/components/schemas/S' }], nullable: true, description: 'd' },
      Ref: { $ref: '#/components/schemas/S', nullable: true },
    });
    expect(s.S).toEqual({ type: ['string', 'null'] });
    expect(s.N).toEqual({ type: 'integer', minimum: 1 });
    expect(s.E).toEqual({ type: ['string', 'null'], enum: ['none', 'pause', null] });
    expect(s.R).toEqual({ anyOf: [{ allOf: [{ $ref: '#/components/schemas/S' }], description: 'd' }, { type: 'null' }] });
    expect(s.Ref).toEqual({ anyOf: [{ $ref: '#/components/schemas/S' }, { type: 'null' }] });
  });

  it('reaches schemas nested in properties, items, additionalProperties, not and allOf/anyOf/oneOf', () => {
    const nullableString = { type: 'string', nullable: true };
    const s = schemasOf({
      O: {
        type: 'object',
        properties: {
          p: nullableString,
          list: { type: 'array', items: nullableString },
          map: { type: 'object', additionalProperties: nullableString },
          neg: { not: nullableString },
          any: { anyOf: [nullableString, { type: 'number' }] },
          one: { oneOf: [{ type: 'object', properties: { deep: nullableString } }] },
          all: { allOf: [{ type: 'number', nullable: true, example: 3 }] },
          flag: { type: 'object', additionalProperties: false },
        },
      },
    });
    const p = s.O.properties;
    const converted = { type: ['string', 'null'] };
    expect(p.p).toEqual(converted);
    expect(p.list.items).toEqual(converted);
    expect(p.map.additionalProperties).toEqual(converted);
    expect(p.neg.not).toEqual(converted);
    expect(p.any.anyOf).toEqual([converted, { type: 'number' }]);
    expect(p.one.oneOf[0].properties.deep).toEqual(converted);
    expect(p.all.allOf).toEqual([{ type: ['number', 'null'], examples: [3] }]);
    expect(p.flag.additionalProperties).toBe(false);
  });

  it('turns boolean exclusive bounds into numbers and drops meaningless ones', () => {
    const s = schemasOf({
      A: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: true },
      B: { type: 'number', minimum: 0, exclusiveMinimum: false, maximum: 10, exclusiveMaximum: false },
      C: { type: 'number', exclusiveMinimum: true },
    });
    expect(s.A).toEqual({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10 });
    expect(s.B).toEqual({ type: 'number', minimum: 0, maximum: 10 });
    expect(s.C).toEqual({ type: 'number' });
  });

  it('turns a schema example into examples and leaves example data untouched', () => {
    const data = { properties: { x: { nullable: true, type: 'string' } }, items: [1], example: 'inner' };
    const s = schemasOf({
      D: { type: 'object', example: data },
      V: { type: 'object', default: { nullable: true }, enum: [{ schema: { nullable: true } }] },
    });
    expect(s.D).toEqual({ type: 'object', examples: [data] });
    expect(s.V).toEqual({ type: 'object', default: { nullable: true }, enum: [{ schema: { nullable: true } }] });
  });

  it('converts schemas of parameters, request bodies and responses, and keeps their examples', () => {
    const out = convert(
      {},
      {
        '/x': {
          get: {
            parameters: [{ name: 'since', in: 'query', schema: { type: 'string', nullable: true }, example: { nullable: true } }],
            responses: {
              default: { description: 'err', content: { 'application/json': { schema: { type: 'integer', nullable: true } } } },
              '200': {
                description: 'ok',
                content: {
                  'application/json': {
                    schema: { type: 'object', properties: { a: { type: 'string', nullable: true, example: 'x' } } },
                    examples: { one: { value: { a: null, nullable: true } } },
                  },
                },
              },
            },
          },
          put: { requestBody: { content: { 'application/json': { schema: { type: 'array', items: { type: 'string', nullable: true } } } } }, responses: {} },
        },
      },
    );
    const get = out.paths['/x'].get;
    expect(get.parameters[0]).toEqual({ name: 'since', in: 'query', schema: { type: ['string', 'null'] }, example: { nullable: true } });
    expect(get.responses.default.content['application/json'].schema).toEqual({ type: ['integer', 'null'] });
    expect(get.responses['200'].content['application/json']).toEqual({
      schema: { type: 'object', properties: { a: { type: ['string', 'null'], examples: ['x'] } } },
      examples: { one: { value: { a: null, nullable: true } } },
    });
    expect(out.paths['/x'].put.requestBody.content['application/json'].schema.items).toEqual({ type: ['string', 'null'] });
  });

  it('does not change its input', () => {
    const input = doc30({ S: { type: 'string', nullable: true, example: 'a' } });
    const copy = structuredClone(input);
    toOpenApi31(input);
    expect(input).toEqual(copy);
  });
});

describe('the served OpenAPI document', () => {
  let desk: TestDesk;
  let served: Obj;

  beforeAll(async () => {
    desk = await startTestDesk();
    const res = await desk.api('GET', '/api/v1/openapi.json', undefined, null);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    served = res.body;
  });
  afterAll(async () => {
    await desk.stop();
  });

  it('is the bundled document and valid OpenAPI 3.1', async () => {
    expect(served).toEqual(openApiDocument);
    expect(served.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(served);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('keeps nothing of 3.0 in its schemas', () => {
    const leftovers: string[] = [];
    const walk = (node: unknown, path: string, inData: boolean) => {
      if (Array.isArray(node)) return node.forEach((v, i) => walk(v, `${path}[${i}]`, inData));
      if (typeof node !== 'object' || node === null) return;
      for (const [k, v] of Object.entries(node)) {
        if (!inData && k === 'nullable') leftovers.push(`${path}.nullable`);
        if (!inData && (k === 'exclusiveMinimum' || k === 'exclusiveMaximum') && typeof v === 'boolean') leftovers.push(`${path}.${k}`);
        walk(v, `${path}.${k}`, inData || ['example', 'examples', 'default', 'enum', 'const'].includes(k));
      }
    };
    walk(served, '', false);
    expect(leftovers).toEqual([]);
  });

  it('gives every operation a unique operationId', () => {
    const seen = new Map<string, string[]>();
    for (const [path, item] of Object.entries(served.paths as Obj)) {
      for (const [method, op] of Object.entries(item as Obj)) {
        if (!op?.operationId) continue;
        seen.set(op.operationId, [...(seen.get(op.operationId) ?? []), `${method.toUpperCase()} ${path}`]);
      }
    }
    const duplicates = [...seen.entries()].filter(([, ops]) => ops.length > 1);
    expect(duplicates).toEqual([]);
  });

  it('lists every route the server answers, and no route it does not', () => {
    const app = buildApp(desk.services) as express.Express & { _router: { stack: { route?: { path: unknown; methods: Record<string, boolean> } }[] } };
    const served31 = new Set<string>();
    for (const [path, item] of Object.entries(served.paths as Obj)) {
      for (const method of Object.keys(item as Obj)) {
        if (['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'].includes(method)) served31.add(`${method.toUpperCase()} ${path}`);
      }
    }
    const routes = new Set<string>();
    for (const layer of app._router.stack) {
      if (!layer.route || typeof layer.route.path !== 'string' || !layer.route.path.startsWith('/api/')) continue;
      const path = layer.route.path.replace(/:(\w+)/g, '{$1}');
      for (const method of Object.keys(layer.route.methods)) if (method !== '_all') routes.add(`${method.toUpperCase()} ${path}`);
    }
    expect(routes.size).toBeGreaterThan(10);
    expect([...routes].filter((r) => !served31.has(r)).sort()).toEqual([]);
    expect([...served31].filter((r) => !routes.has(r)).sort()).toEqual([]);
  });

  it('documents the bearer scheme', () => {
    expect(served.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  const operations = () =>
    Object.entries(served.paths as Obj).flatMap(([path, item]) =>
      Object.entries(item as Obj)
        .filter(([method]) => ['get', 'put', 'post', 'delete', 'patch'].includes(method))
        .map(([method, op]) => ({ what: `${method.toUpperCase()} ${path}`, path, op: op as Obj })),
    );
  const errorBodyRef = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } };

  it('gives every operation a described, schema-typed success response, and a request schema for every body and parameter', () => {
    for (const { what, op } of operations()) {
      const success = Object.entries(op.responses as Obj).filter(([status]) => status.startsWith('2'));
      expect(success.length, what).toBeGreaterThan(0);
      // An event stream (GET /events/stream) is text/event-stream; every other answer JSON.
      for (const [, res] of success) expect((res.content?.['application/json'] ?? res.content?.['text/event-stream'])?.schema, what).toBeDefined();
      if (op.requestBody) expect(op.requestBody.content['application/json'].schema, what).toBeDefined();
      for (const p of op.parameters ?? []) expect(p.schema, `${what} ${p.name}`).toBeDefined();
    }
  });

  it('documents the shared error answers of every /api/v1 operation with the one error shape', () => {
    for (const { what, path, op } of operations()) {
      if (!path.startsWith('/api/v1/')) continue;
      const secured = (op.security ?? []).length > 0;
      const expected = [
        ...(secured ? ['401'] : []),
        ...(op.requestBody ? ['400', '413', '422'] : []),
        ...((op.parameters ?? []).some((p: Obj) => p.in === 'query') ? ['422'] : []),
        ...((op.parameters ?? []).some((p: Obj) => p.in === 'path') ? ['404'] : []),
      ];
      for (const status of expected) {
        expect(op.responses[status]?.content, `${what} ${status}`).toEqual(errorBodyRef);
        expect(op.responses[status].description.length, `${what} ${status}`).toBeGreaterThan(0);
      }
    }
    expect(served.components.schemas.ErrorBody.required).toEqual(['error', 'message']);
  });

  it('says the body limit the server enforces', () => {
    expect(DOCUMENTED_BODY_LIMIT).toBe(JSON_BODY_LIMIT);
    expect(served.paths['/api/v1/workspace/loop'].patch.responses['413'].description).toContain(JSON_BODY_LIMIT);
    expect(DOCUMENTED_LARGE_BODY_LIMITS).toEqual(LARGE_BODY_LIMITS);
    expect(served.paths['/api/v1/workspace/import'].post.responses['413'].description).toContain('64mb');
  });

  it('describes every workspace and activity operation, and types whole numbers and times', () => {
    for (const { what, path, op } of operations()) {
      if (!path.startsWith('/api/v1/workspace') && path !== '/api/v1/activity') continue;
      expect(op.description?.length ?? 0, what).toBeGreaterThan(20);
    }
    const profile = served.components.schemas.WorkspaceProfile.properties;
    for (const field of ['loopIntervalMinutes', 'effectiveLoopIntervalMinutes', 'planFloorMinutes', 'sourceChronicThresholdDays']) {
      expect(profile[field].type, field).toBe('integer');
    }
    for (const field of ['dailyCostCapUsdCents', 'staleTaskAutoArchiveDays', 'staleMemoryAutoArchiveDays']) expect(profile[field].type, field).toEqual(['integer', 'null']);
    for (const field of ['createdAt', 'updatedAt', 'pauseUntilAt']) expect(profile[field].format, field).toBe('date-time');
    expect(served.components.schemas.ActivityRecord.properties.createdAt.format).toBe('date-time');
    const limit = served.paths['/api/v1/activity'].get.parameters.find((p: Obj) => p.name === 'limit');
    expect(limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 200, default: 50 });
    const sinceDays = served.paths['/api/v1/workspace/focus-history'].get.parameters.find((p: Obj) => p.name === 'sinceDays');
    expect(sinceDays.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 365, default: 90 });
  });
});

describe('addErrorResponses', () => {
  const errorBody = { type: 'object', properties: { error: { type: 'string' }, message: { type: 'string' } }, required: ['error', 'message'] };
  const base = (paths: Obj) => ({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths, components: { schemas: { ErrorBody: errorBody } } });
  const ok = { 200: { description: 'Ok' } };

  it('adds 401 to secured operations, 400/413/422 to bodies, 422 to query parameters, 404 to path ids', () => {
    const doc = addErrorResponses(
      base({
        '/api/v1/a': { get: { responses: ok, security: [{ bearer: [] }], parameters: [{ in: 'query', name: 'limit', schema: { type: 'integer' } }] } },
        '/api/v1/b/{id}': { patch: { responses: ok, security: [{ bearer: [] }], parameters: [{ in: 'path', name: 'id', schema: { type: 'string' } }], requestBody: {} } },
        '/api/v1/public': { get: { responses: ok, security: [] } },
      }),
    ) as Obj;
    expect(Object.keys(doc.paths['/api/v1/a'].get.responses).sort()).toEqual(['200', '401', '422']);
    expect(Object.keys(doc.paths['/api/v1/b/{id}'].patch.responses).sort()).toEqual(['200', '400', '401', '404', '413', '422']);
    expect(Object.keys(doc.paths['/api/v1/public'].get.responses)).toEqual(['200']);
    expect(doc.paths['/api/v1/a'].get.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
  });

  it('keeps what a controller documented itself, leaves other prefixes alone and does not change its input', () => {
    const input = base({
      '/api/v1/a': { post: { responses: { ...ok, 422: { description: 'own words' } }, requestBody: {}, security: [{ bearer: [] }] } },
      '/api/webhooks/x': { post: { responses: ok, requestBody: {} } },
    });
    const before = structuredClone(input);
    const doc = addErrorResponses(input) as Obj;
    expect(doc.paths['/api/v1/a'].post.responses['422']).toEqual({ description: 'own words' });
    expect(doc.paths['/api/webhooks/x'].post.responses).toEqual(ok);
    expect(input).toEqual(before);
  });

  it('refuses a document without the ErrorBody schema', () => {
    expect(() => addErrorResponses({ openapi: '3.1.0', paths: {}, components: { schemas: {} } })).toThrow(/ErrorBody/);
  });
});
