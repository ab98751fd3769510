import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../openapi/document';
import { fixedReads, isStream } from './openapi-reads';
import { dbFingerprint, writeMark, type DbFingerprint } from './db-fingerprint';
import { changedTables, readAffected, recordReadTables, type ReadTables } from './read-tables';
import { startTestDesk, type TestDesk } from './desk';
import { httpRequest } from './http-request';
import { startTestReceiver, type TestReceiver } from './fakes/webhook-receiver';
import { restoreRows, snapshotRows, type RowSnapshot } from './fixtures/desk-snapshot';
import { buildFullDesk, smallExport, type FullDesk } from './fixtures/full-desk';
import { hostileValue, idKindOf, oddString, pathParam, rawBody, validValue, valueFor, type FuzzContext, type Schema } from './fuzz';

/**
 * The fuzz's desk and requests (server/api/fuzz/*.api.test.ts): every operation of the OpenAPI
 * document, public ones included, fuzzed with a fixed seed and a bounded number of runs over a desk
 * that holds the whole product (buildFullDesk): path parameters and id fields are real ids of their
 * kind half the time, bodies are valid, near-valid or hostile. After an operation's writes, the reads
 * of the tables they changed (read-tables.ts) and the rows they touched must still answer; then its
 * rows are put back, so every operation meets the whole desk. The operations are split between
 * test files (`operationsPart`) so that both test workers share the work.
 */

// Fixed in CI; FUZZ_RUNS and FUZZ_SEED explore further by hand (a failure prints its seed and path to replay).
export const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 12);
export const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
export const SEQUENCES = Number(process.env.FUZZ_SEQUENCES ?? 20);

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  security?: unknown[];
  responses?: Record<string, { content?: Record<string, unknown> } | undefined>;
}
export interface FuzzOperation {
  method: string;
  path: string;
  op: Operation;
}
export type Request = { method: string; url: string; body?: string; headers: Record<string, string> };

/** Every operation but the streams (they answer for as long as the client listens). */
export const operations: FuzzOperation[] = Object.entries(openApiDocument.paths as Record<string, Record<string, Operation>>)
  .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, op })))
  .filter(({ op }) => !isStream(op));

/** Part `part` (1-based) of `parts`: every parts-th operation, so each part mixes cheap and costly areas. */
export const operationsPart = (part: number, parts: number): FuzzOperation[] => operations.filter((_, i) => i % parts === part - 1);

const isPublic = (op: Operation) => (op.security ?? []).length === 0;

/** `{id}` says nothing by itself: the segment before it names the kind. */
const ID_SEGMENTS: Record<string, string> = {
  tasks: 'task',
  sources: 'source',
  signals: 'signal',
  memory: 'memory',
  artifacts: 'artifact',
  'task-templates': 'template',
  subscriptions: 'subscription',
  deliveries: 'delivery',
  mentions: 'mention',
};
const SLUG_SEGMENTS: Record<string, string> = { 'by-author': 'blogAuthor', 'by-tag': 'blogTag', related: 'blogPost', blog: 'blogPost' };

/** The kind of real id a path parameter takes, or null when none is known (a test fails then). */
export function pathKind(path: string, name: string): string | null {
  const segments = path.split('/');
  const before = segments[segments.indexOf(`{${name}}`) - 1];
  switch (name) {
    case 'id':
      return ID_SEGMENTS[before] ?? null;
    case 'key':
      return before === 'roadmap-items' ? 'roadmapItem' : before === 'onboarding-templates' ? 'onboardingTemplate' : null;
    case 'slug':
      return SLUG_SEGMENTS[before] ?? null;
    case 'category':
      return 'onboardingCategory';
    case 'rev':
      return 'release';
    case 'tag':
      return 'tag';
    case 'token':
      return 'deskToken';
    case 'assigneeId':
      return 'assignee';
    default:
      return idKindOf(name);
  }
}

/** Stands for the desk's token in a request built ahead: send() puts in the token current then (a rotation may come first). */
const DESK_TOKEN = '__desk_token__';

export const reads = fixedReads;

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The full desk of one test file: started in its beforeAll, stopped in its afterAll. */
export function useFuzzDesk() {
  let desk: TestDesk;
  let receiver: TestReceiver;
  let full: FullDesk;
  let ctx: FuzzContext;
  let fresh: RowSnapshot;
  let freshPrint: string;
  let freshRows: DbFingerprint;
  let startedAt: Date;
  let readTables: Map<string, ReadTables>;
  /** The last fingerprint taken, and the write mark before it: it holds as long as the mark has not moved. */
  let known: { mark: string; print: DbFingerprint; json?: string } | null = null;

  const pools = () => ({ ...full.ids, assignee: [...full.ids.user, '__unassigned__'], deskToken: [DESK_TOKEN] }) as Record<string, string[]>;

  /** Values a rule accepts where the schema cannot say (a free-form object, a name from a list the desk knows). */
  const validValues = () => ({
    data: [smallExport('fuzz', desk.clock.now())],
    timezone: ['Europe/Paris', 'America/Los_Angeles', 'UTC'],
    status: ['queued', 'queued,in_progress', 'done', 'needs_input,in_progress'],
    key: full.ids.onboardingTemplate.slice(0, 3),
  });

  beforeAll(async () => {
    receiver = await startTestReceiver();
    desk = await startTestDesk();
    full = await buildFullDesk(desk, { receiverUrl: receiver.url });
    ctx = { schemas: (openApiDocument.components as { schemas: Record<string, Schema> }).schemas, ids: Object.values(full.ids).flat(), pools: pools(), now: desk.clock.now(), values: validValues() };
    startedAt = desk.clock.now();
    fresh = await snapshotRows(desk.services.db);
    freshRows = await dbFingerprint(desk.services.db);
    freshPrint = JSON.stringify(freshRows);
    readTables = await recordReadTables(desk.services.db, reads, (path) => desk.api('GET', path));
  }, 120_000);
  afterAll(async () => {
    await desk?.stop();
    await receiver?.close();
  });

  async function fingerprint(): Promise<{ print: DbFingerprint; json: string }> {
    const mark = await writeMark(desk.services.db);
    if (known?.mark !== mark) known = { mark, print: await dbFingerprint(desk.services.db) };
    known.json ??= JSON.stringify(known.print);
    return known as { print: DbFingerprint; json: string };
  }


  /** Puts the whole desk back when an operation changed it (restoreRows rewrites only what changed). */
  async function backToFullDesk(): Promise<void> {
    if (await restoreRows(desk.services.db, fresh)) desk.clock.set(startedAt);
  }

  /** Reads of single rows, one per real id of the kinds the writes touch most. */
  const detailReads = () => [
    ...full.ids.task.map((id) => `/api/v1/tasks/${id}`),
    ...full.ids.artifact.map((id) => `/api/v1/artifacts/${id}`),
    ...full.ids.memory.map((id) => `/api/v1/memory/${id}`),
    ...full.ids.signal.map((id) => `/api/v1/signals/${id}`),
    ...full.ids.source.map((id) => `/api/v1/sources/${id}`),
  ];

  /**
   * The rows the desk's writes since it was full added, changed or removed, as text: a row's detail
   * read is worth repeating after an operation only when the operation touched a row naming it.
   */
  function touchedRows(now: DbFingerprint): string {
    const touched: string[] = [];
    for (const table of new Set([...Object.keys(now), ...Object.keys(freshRows)])) {
      const before = new Set(freshRows[table] ?? []);
      const after = new Set(now[table] ?? []);
      for (const row of after) if (!before.has(row)) touched.push(row);
      for (const row of before) if (!after.has(row)) touched.push(row);
    }
    return touched.join('\n');
  }

  /**
   * What the desk fails to read after writes: a list that does not answer 200, a row that answers a
   * 5xx. Every read and every row of the full desk; or, after one operation, the reads of the tables
   * it `changed` and the rows `touched` names.
   */
  async function failingReads(since?: { touched: string; changed: ReadonlySet<string> }): Promise<string[]> {
    const failed: string[] = [];
    for (const path of reads) {
      if (since !== undefined && !readAffected(readTables.get(path), since.changed)) continue;
      const res = await desk.api('GET', path);
      if (res.status !== 200) failed.push(`${path} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    }
    for (const path of detailReads()) {
      if (since !== undefined && !since.touched.includes(path.slice(path.lastIndexOf('/') + 1))) continue;
      const res = await desk.api('GET', path);
      if (res.status >= 500) failed.push(`${path} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    }
    return failed;
  }

  /**
   * Requests for one operation: a third valid (real ids of the right kind, parameters and body that
   * follow the schema, the token), the rest fuzzed (odd or hostile values anywhere, unknown query
   * parameters, odd idempotency keys, no token or a wrong one).
   */
  function requestFor(operation: FuzzOperation): fc.Arbitrary<Request> {
    return fc.oneof({ arbitrary: requestArb(operation, true), weight: 1 }, { arbitrary: requestArb(operation, false), weight: 2 });
  }

  function requestArb({ method, path, op }: FuzzOperation, valid: boolean): fc.Arbitrary<Request> {
    const params = op.parameters ?? [];
    const livePools = pools();
    const pathArbs = params
      .filter((p) => p.in === 'path')
      .map((p) => {
        const pool = livePools[pathKind(path, p.name) ?? ''];
        return fc.tuple(fc.constant(p.name), valid ? fc.constantFrom(...pool) : pathParam(ctx, pool));
      });
    const queryArbs = params
      .filter((p) => p.in === 'query')
      .map((p) =>
        fc.tuple(
          fc.constant(p.name),
          valid ? fc.option(validValue(p.schema, ctx, p.name), { freq: 2 }) : fc.option(fc.oneof(validValue(p.schema, ctx, p.name), valueFor(p.schema, ctx, p.name), oddString), { freq: 3 }),
        ),
      );
    const bodySchema = op.requestBody?.content?.['application/json']?.schema;
    const bodyArb: fc.Arbitrary<string | undefined> = bodySchema
      ? valid
        ? validValue(bodySchema, ctx).map((v) => JSON.stringify(v))
        : fc.oneof(
            { arbitrary: valueFor(bodySchema, ctx).map((v) => JSON.stringify(v)), weight: 6 },
            { arbitrary: rawBody, weight: 1 },
            { arbitrary: hostileValue.map((v) => JSON.stringify(v)), weight: 1 },
          )
      : method === 'GET' || valid
        ? fc.constant(undefined)
        : fc.option(rawBody, { freq: 4 }).map((v) => v ?? undefined);
    // Public routes are called without a token half the time; bearer routes now and then without one, or with a wrong one.
    const authArb = valid ? fc.constant('bearer') : isPublic(op) ? fc.constantFrom('bearer', 'none') : fc.constantFrom('bearer', 'bearer', 'bearer', 'bearer', 'bearer', 'none', 'wrong');
    const extraArb = valid ? fc.constant(null) : fc.option(oddString, { freq: 3 });
    return fc
      .tuple(fc.tuple(...pathArbs), fc.tuple(...queryArbs), bodyArb, fc.option(oddString, { freq: 6 }), extraArb, authArb)
      .map(([pathValues, queryValues, body, idempotencyKey, extraQuery, auth]) => {
        let url = path;
        for (const [name, value] of pathValues) url = url.replace(`{${name}}`, encodeURIComponent(value));
        const query = new URLSearchParams();
        for (const [name, value] of queryValues) if (value !== null) query.set(name, typeof value === 'string' ? value : JSON.stringify(value));
        if (extraQuery !== null) query.set(extraQuery.slice(0, 20) || 'x', extraQuery);
        const qs = query.toString();
        const headers: Record<string, string> = {};
        if (auth !== 'none') headers.authorization = `Bearer ${auth === 'bearer' ? DESK_TOKEN : 'not-the-token'}`;
        if (body !== undefined) headers['content-type'] = 'application/json';
        // Header values cannot carry control characters; keep what fetch can send.
        if (idempotencyKey !== null && /^[\x20-\x7e]{1,300}$/.test(idempotencyKey)) headers['idempotency-key'] = idempotencyKey;
        return { method, url: qs ? `${url}?${qs}` : url, body, headers };
      });
  }

  async function send(req: Request): Promise<{ status: number; text: string }> {
    const headers = { ...req.headers };
    if (headers.authorization) headers.authorization = headers.authorization.replace(DESK_TOKEN, desk.token);
    const res = await httpRequest(desk.url + req.url.replace(DESK_TOKEN, desk.token), { method: req.method, headers, body: req.body });
    return { status: res.status, text: res.text };
  }

  /** The fuzz of one operation: no 5xx, a refusal answers the one error shape and changes nothing. Returns whether any request got past validation. */
  async function fuzzOperation(operation: FuzzOperation): Promise<boolean> {
    let reached = false;
    try {
      await fc.assert(
        fc.asyncProperty(requestFor(operation), async (req) => {
          const before = (await fingerprint()).print;
          const res = await send(req);
          const what = `${req.method} ${req.url.slice(0, 300)} ${req.body?.slice(0, 300)} -> ${res.status} ${res.text.slice(0, 300)}`;
          expect(res.status, what).toBeLessThan(500);
          if (res.status < 300) reached = true;
          if (res.status >= 400) {
            expect(parseJson(res.text), what).toMatchObject({ error: expect.any(String), message: expect.any(String) });
            expect((await fingerprint()).print, `${what} changed the database`).toEqual(before);
          }
        }),
        { seed: SEED, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
      );
      // What the accepted requests wrote must not break a read (a row a list or an export cannot serve).
      const after = await fingerprint();
      if (after.json !== freshPrint) {
        const since = { touched: touchedRows(after.print), changed: changedTables(freshRows, after.print) };
        expect(await failingReads(since), "reads after this operation's writes").toEqual([]);
      }
    } finally {
      await backToFullDesk();
    }
    return reached;
  }

  return {
    get desk() {
      return desk;
    },
    get full() {
      return full;
    },
    /** The tables each fixed read names (read-tables.ts), recorded on the full desk. */
    get readTables() {
      return readTables;
    },
    pools,
    requestArb,
    send,
    failingReads,
    detailReads,
    backToFullDesk,
    fuzzOperation,
  };
}

/**
 * One part of the operations, fuzzed one by one over a full desk of its own; then every read still
 * answers and most operations got past validation (real ids and valid bodies reach the rules).
 */
export function describeOperationsFuzz(part: number, parts: number): void {
  const mine = operationsPart(part, parts);
  describe(`fuzz: operations, part ${part} of ${parts}, over the whole product`, () => {
    const fuzz = useFuzzDesk();
    const reached = new Set<string>();

    it.each(mine.map((o) => [`${o.method} ${o.path}`, o] as const))('%s: no 5xx, refusals change nothing', async (name, operation) => {
      if (await fuzz.fuzzOperation(operation)) reached.add(name);
    });

    it('got past validation on most operations', () => {
      const missed = mine.map((o) => `${o.method} ${o.path}`).filter((name) => !reached.has(name));
      expect(missed.length, `never past validation:\n${missed.join('\n')}`).toBeLessThan(mine.length * 0.1);
    });

    it('still serves every read after the fuzz, and the whole desk is there', async () => {
      expect(await fuzz.failingReads()).toEqual([]);
      for (const path of fuzz.detailReads()) expect((await fuzz.desk.api('GET', path)).status, path).toBe(200);
    });
  });
}
