import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../openapi/document';
import { dbFingerprint, writeMark, type DbFingerprint } from '../../testing/db-fingerprint';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { startTestReceiver, type TestReceiver } from '../../testing/fakes/webhook-receiver';
import { restoreRows, snapshotRows, type RowSnapshot } from '../../testing/fixtures/desk-snapshot';
import { buildFullDesk, smallExport, type FullDesk } from '../../testing/fixtures/full-desk';
import { hostileValue, idKindOf, oddString, pathParam, rawBody, validValue, valueFor, type FuzzContext, type Schema } from '../../testing/fuzz';

/**
 * Every operation of the OpenAPI document, public ones included, fuzzed with a fixed seed and a
 * bounded number of runs over a desk that holds the whole product (buildFullDesk): path
 * parameters and id fields are real ids of their kind half the time, bodies are valid, near-valid
 * or hostile. No answer is a 5xx, a refused request (4xx) answers the one error shape and changes
 * nothing in the database, and what accepted requests wrote never breaks a read. Then sequences
 * of valid writes across every area, with time passing and the jobs running between them. After
 * anything that changed the desk its rows are put back, so every operation meets the whole desk.
 * Routes added later are covered the day they land (a new path parameter needs its kind below).
 */

// Fixed in CI; FUZZ_RUNS and FUZZ_SEED explore further by hand (a failure prints its seed and path to replay).
const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const SEQUENCES = Number(process.env.FUZZ_SEQUENCES ?? 20);

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
}

/** Streams answer for as long as the client listens (server/api/events/event-stream.api.test.ts covers them). */
const STREAMS = new Set(['StreamEvents']);
const operations: { method: string; path: string; op: Operation }[] = Object.entries(openApiDocument.paths as Record<string, Record<string, Operation>>)
  .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, op })))
  .filter(({ op }) => !STREAMS.has(op.operationId ?? ''));
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

/** The kind of real id a path parameter takes, or null when none is known (a test below fails then). */
function pathKind(path: string, name: string): string | null {
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

let desk: TestDesk;
let receiver: TestReceiver;
let full: FullDesk;
let ctx: FuzzContext;
let fresh: RowSnapshot;
let freshPrint: string;
let startedAt: Date;
/** Operations that answered 2xx at least once: the fuzz reached the rules behind validation. */
const reached = new Set<string>();

/** Stands for the desk's token in a request built ahead: send() puts in the token current then (a rotation may come first). */
const DESK_TOKEN = '__desk_token__';
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
  freshPrint = JSON.stringify(await dbFingerprint(desk.services.db));
}, 120_000);
afterAll(async () => {
  await desk?.stop();
  await receiver?.close();
});

/** The last fingerprint taken, and the write mark before it: it holds as long as the mark has not moved. */
let known: { mark: string; print: DbFingerprint; json?: string } | null = null;
async function fingerprint(): Promise<{ print: DbFingerprint; json: string }> {
  const mark = await writeMark(desk.services.db);
  if (known?.mark !== mark) known = { mark, print: await dbFingerprint(desk.services.db) };
  known.json ??= JSON.stringify(known.print);
  return known as { print: DbFingerprint; json: string };
}

const changed = async () => (await fingerprint()).json !== freshPrint;

/** Puts the whole desk back when an operation changed it (restoreRows rewrites only what changed). */
async function backToFullDesk(): Promise<void> {
  if (await restoreRows(desk.services.db, fresh)) desk.clock.set(startedAt);
}

/** Every read of the document without parameters (the lists, summaries, exports, public pages of data). */
const reads = operations.filter(({ method, op }) => method === 'GET' && !(op.parameters ?? []).some((p) => p.in === 'path' || p.required)).map((o) => o.path);
/** Reads of single rows, one per real id of the kinds the writes touch most. */
const detailReads = () => [
  ...full.ids.task.map((id) => `/api/v1/tasks/${id}`),
  ...full.ids.artifact.map((id) => `/api/v1/artifacts/${id}`),
  ...full.ids.memory.map((id) => `/api/v1/memory/${id}`),
  ...full.ids.signal.map((id) => `/api/v1/signals/${id}`),
  ...full.ids.source.map((id) => `/api/v1/sources/${id}`),
];

/** What the desk fails to read after writes: a list that does not answer 200, a row that answers a 5xx. */
async function failingReads(): Promise<string[]> {
  const failed: string[] = [];
  for (const path of reads) {
    const res = await desk.api('GET', path);
    if (res.status !== 200) failed.push(`${path} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  }
  for (const path of detailReads()) {
    const res = await desk.api('GET', path);
    if (res.status >= 500) failed.push(`${path} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  }
  return failed;
}

type Request = { method: string; url: string; body?: string; headers: Record<string, string> };

/**
 * Requests for one operation: a third valid (real ids of the right kind, parameters and body that
 * follow the schema, the token), the rest fuzzed (odd or hostile values anywhere, unknown query
 * parameters, odd idempotency keys, no token or a wrong one).
 */
function requestFor(operation: (typeof operations)[number]): fc.Arbitrary<Request> {
  return fc.oneof({ arbitrary: requestArb(operation, true), weight: 1 }, { arbitrary: requestArb(operation, false), weight: 2 });
}

function requestArb({ method, path, op }: (typeof operations)[number], valid: boolean): fc.Arbitrary<Request> {
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
    .map((p) => fc.tuple(fc.constant(p.name), valid ? fc.option(validValue(p.schema, ctx, p.name), { freq: 2 }) : fc.option(fc.oneof(validValue(p.schema, ctx, p.name), valueFor(p.schema, ctx, p.name), oddString), { freq: 3 })));
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function send(req: Request): Promise<{ status: number; text: string }> {
  const headers = { ...req.headers };
  if (headers.authorization) headers.authorization = headers.authorization.replace(DESK_TOKEN, desk.token);
  const res = await fetch(desk.url + req.url.replace(DESK_TOKEN, desk.token), { method: req.method, headers, body: req.body });
  return { status: res.status, text: await res.text() };
}

describe('fuzz: every operation of the OpenAPI document, over the whole product', () => {
  it('knows the kind of real id every path parameter takes, and the desk holds ids of every kind', () => {
    const unknown = operations.flatMap(({ method, path, op }) =>
      (op.parameters ?? []).filter((p) => p.in === 'path' && !(pools()[pathKind(path, p.name) ?? '']?.length > 0)).map((p) => `${method} ${path} {${p.name}}`),
    );
    expect(unknown).toEqual([]);
    expect(Object.entries(full.ids).filter(([, ids]) => ids.length === 0)).toEqual([]);
    expect(full.artifacts.ready.length * full.artifacts.approved.length * full.artifacts.archived.length).toBeGreaterThan(0);
  });

  it.each(operations.map((o) => [`${o.method} ${o.path}`, o] as const))('%s: no 5xx, refusals change nothing', async (_name, operation) => {
    try {
      await fc.assert(
        fc.asyncProperty(requestFor(operation), async (req) => {
          const before = (await fingerprint()).print;
          const res = await send(req);
          const what = `${req.method} ${req.url.slice(0, 300)} ${req.body?.slice(0, 300)} -> ${res.status} ${res.text.slice(0, 300)}`;
          expect(res.status, what).toBeLessThan(500);
          if (res.status < 300) reached.add(`${req.method} ${operation.path}`);
          if (res.status >= 400) {
            expect(parseJson(res.text), what).toMatchObject({ error: expect.any(String), message: expect.any(String) });
            expect((await fingerprint()).print, `${what} changed the database`).toEqual(before);
          }
        }),
        { seed: SEED, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
      );
      // What the accepted requests wrote must not break a read (a row a list or an export cannot serve).
      if (await changed()) expect(await failingReads(), 'reads after this operation\'s writes').toEqual([]);
    } finally {
      await backToFullDesk();
    }
  });

  it('sequences of valid writes and passing time never leave a row that a read or a job cannot handle', async () => {
    // Deleting a source its signals name, removing a member who is an assignee, author and reviewer,
    // a blocker deleted under its task, then a day passing over it (sweeps, detectors, digest,
    // deliveries, backups): combinations that one operation at a time never meets.
    const writes = operations.filter((o) => o.method !== 'GET');
    const jobsRan = new Set<string>();
    const step = fc.oneof(
      { arbitrary: fc.oneof(...writes.map((o) => requestArb(o, true))), weight: 9 },
      { arbitrary: fc.integer({ min: 1, max: 72 }).map((hours) => ({ hours })), weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 8, maxLength: 25 }), async (steps) => {
        try {
          const log: string[] = [];
          for (const s of steps) {
            if ('hours' in s) {
              desk.clock.advance(s.hours * 3_600_000);
              const ran = await desk.services.scheduler.tick();
              log.push(`+${s.hours} h: ${ran.join(', ')}`);
              for (const name of ran) jobsRan.add(name);
              const failedJobs = await desk.services.db.selectFrom('schedulerJobs').select(['name', 'lastError']).where('lastError', 'is not', null).execute();
              expect(failedJobs, log.join('\n')).toEqual([]);
              continue;
            }
            const res = await send(s);
            log.push(`${s.method} ${s.url.slice(0, 200)} ${s.body?.slice(0, 200)} -> ${res.status} ${res.text.slice(0, 200)}`);
            expect(res.status, log.join('\n')).toBeLessThan(500);
          }
          expect(await failingReads(), `reads after:\n${log.join('\n')}`).toEqual([]);
        } finally {
          await desk.services.outbound.worker.settle();
          await backToFullDesk();
        }
      }),
      { seed: SEED, numRuns: SEQUENCES, endOnFailure: true },
    );
    expect([...jobsRan]).toEqual(expect.arrayContaining(['loop.cycle', 'tasks.stale-sweep', 'memory.stale-sweep', 'cost-guard.detect', 'outbound.deliver', 'digest.daily', 'sources.feed-poll']));
  }, 600_000);

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

  it('got past validation on most operations (real ids and valid bodies reach the rules behind it)', () => {
    const missed = operations.map((o) => `${o.method} ${o.path}`).filter((name) => !reached.has(name));
    expect(missed.length, `never past validation:\n${missed.join('\n')}`).toBeLessThan(operations.length * 0.1);
  });

  it('still serves every read after the fuzz, and the whole desk is there', async () => {
    expect(reads.length).toBeGreaterThan(80);
    expect(await failingReads()).toEqual([]);
    for (const path of detailReads()) expect((await desk.api('GET', path)).status, path).toBe(200);
  });
});
