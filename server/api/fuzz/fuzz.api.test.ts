import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../openapi/document';
import { dbFingerprint } from '../../testing/db-fingerprint';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { createSignal } from '../../testing/fixtures/signals';
import { createManualSource } from '../../testing/fixtures/sources';
import { hostileValue, oddString, pathParam, rawBody, valueFor, type FuzzContext, type Schema } from '../../testing/fuzz';

/**
 * Every operation of the OpenAPI document, fuzzed with a fixed seed and a bounded number of runs:
 * no answer is a 5xx, a refused request (4xx) changes nothing in the database, and the desk still
 * answers afterwards. Routes added later are covered the day they land.
 */

const RUNS_PER_OPERATION = 12;
const SEED = 20261123;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema?: Schema;
}
interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}

const operations: { method: string; path: string; op: Operation }[] = Object.entries(openApiDocument.paths as Record<string, Record<string, Operation>>).flatMap(
  ([path, item]) => Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
);

let desk: TestDesk;
let ctx: FuzzContext;

beforeAll(async () => {
  desk = await startTestDesk();
  const source = await createManualSource(desk);
  const signal = await createSignal(desk, { sourceUrl: null });
  const profile = (await desk.api('GET', '/api/v1/workspace')).body;
  ctx = { schemas: (openApiDocument.components as { schemas: Record<string, Schema> }).schemas, ids: [source.id, signal.id, profile.ownerUserId] };
});
afterAll(async () => {
  await desk?.stop();
});

type Request = { method: string; url: string; body?: string; headers: Record<string, string> };

function requestFor({ method, path, op }: (typeof operations)[number]): fc.Arbitrary<Request> {
  const params = op.parameters ?? [];
  const pathArbs = params.filter((p) => p.in === 'path').map((p) =>
    // The webhook's path token addresses the desk: mostly the real one, so its body rules run.
    fc.tuple(fc.constant(p.name), p.name === 'token' ? fc.oneof({ arbitrary: fc.constant(desk.token), weight: 4 }, { arbitrary: pathParam(ctx), weight: 1 }) : pathParam(ctx)),
  );
  const queryArbs = params.filter((p) => p.in === 'query').map((p) => fc.tuple(fc.constant(p.name), fc.option(fc.oneof(valueFor(p.schema, ctx, p.name), oddString), { freq: 3 })));
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  const bodyArb: fc.Arbitrary<string | undefined> = bodySchema
    ? fc.oneof(
        { arbitrary: valueFor(bodySchema, ctx).map((v) => JSON.stringify(v)), weight: 6 },
        { arbitrary: rawBody, weight: 1 },
        { arbitrary: hostileValue.map((v) => JSON.stringify(v)), weight: 1 },
      )
    : method === 'GET'
      ? fc.constant(undefined)
      : fc.option(rawBody, { freq: 4 }).map((v) => v ?? undefined);
  return fc
    .tuple(fc.tuple(...pathArbs), fc.tuple(...queryArbs), bodyArb, fc.option(oddString, { freq: 6 }), fc.option(oddString, { freq: 8 }))
    .map(([pathValues, queryValues, body, idempotencyKey, extraQuery]) => {
      let url = path;
      for (const [name, value] of pathValues) url = url.replace(`{${name}}`, encodeURIComponent(value));
      const query = new URLSearchParams();
      for (const [name, value] of queryValues) if (value !== null) query.set(name, typeof value === 'string' ? value : JSON.stringify(value));
      if (extraQuery !== null) query.set(extraQuery.slice(0, 20) || 'x', extraQuery);
      const qs = query.toString();
      const headers: Record<string, string> = { authorization: `Bearer ${desk.token}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      // Header values cannot carry control characters; keep what fetch can send.
      if (idempotencyKey !== null && /^[\x20-\x7e]{1,300}$/.test(idempotencyKey)) headers['idempotency-key'] = idempotencyKey;
      return { method, url: qs ? `${url}?${qs}` : url, body, headers };
    });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function send(req: Request): Promise<{ status: number; text: string }> {
  const res = await fetch(desk.url + req.url, { method: req.method, headers: req.headers, body: req.body });
  return { status: res.status, text: await res.text() };
}

describe('fuzz: every operation of the OpenAPI document', () => {
  it.each(operations.map((o) => [`${o.method} ${o.path}`, o] as const))('%s: no 5xx, refusals change nothing', async (_name, operation) => {
    await fc.assert(
      fc.asyncProperty(requestFor(operation), async (req) => {
        const before = await dbFingerprint(desk.services.db);
        const res = await send(req);
        const what = `${req.method} ${req.url.slice(0, 300)} ${req.body?.slice(0, 300)} -> ${res.status} ${res.text.slice(0, 300)}`;
        expect(res.status, what).toBeLessThan(500);
        if (res.status >= 400) {
          expect(parseJson(res.text), what).toMatchObject({ error: expect.any(String), message: expect.any(String) });
          expect(await dbFingerprint(desk.services.db), `${what} changed the database`).toEqual(before);
        }
      }),
      { seed: SEED, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
    );
  });

  it('refuses bodies nested thousands deep on union-typed fields with a 4xx, not a stack overflow', async () => {
    // Written as text: JSON.stringify itself recurses once per level.
    const deep = `${'['.repeat(5000)}1${']'.repeat(5000)}`;
    for (const [path, body] of [
      ['/api/v1/workspace/loop', `{"loopState":${deep}}`],
      ['/api/v1/workspace/cost-cap', `{"dailyCostCapUsdCents":${deep}}`],
    ] as const) {
      const res = await fetch(desk.url + path, { method: 'PATCH', headers: { authorization: `Bearer ${desk.token}`, 'content-type': 'application/json' }, body });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
    }
  });

  it('still answers after the fuzz', async () => {
    const res = await desk.api('GET', '/api/v1/workspace');
    expect(res.status).toBe(200);
  });
});
