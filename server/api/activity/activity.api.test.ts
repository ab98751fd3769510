import { inTransaction } from '../../../db/transactions';
import type { ActivityKind } from '../../domain/catalog/activity-kinds';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MINUTE_MS } from '../../core/clock';
import { encodeCursor } from '../../core/lists';
import { recordActivity, SYSTEM_ACTOR } from '../../domain/activity/activity';
import { startTestDesk, type TestDesk } from '../../testing/desk';

let desk: TestDesk;

beforeEach(async () => {
  desk = await startTestDesk();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await desk.stop();
});

type Row = { id: string; kind: string; detail: string; createdAt: string };

async function list(query = ''): Promise<Row[]> {
  const res = await desk.api('GET', `/api/v1/activity${query}`);
  expect(res.status, `${query} -> ${JSON.stringify(res.body)}`).toBe(200);
  return res.body.activities;
}

/** Writes `n` rows one minute apart through the domain function, as any area does. */
async function addRows(n: number, kind: ActivityKind = 'signal.created', detail = (i: number) => `row ${i}`) {
  for (let i = 0; i < n; i++) {
    desk.clock.advance(MINUTE_MS);
    await inTransaction(desk.services.db, (trx) => recordActivity(trx, desk.clock, { kind, detail: detail(i), actor: SYSTEM_ACTOR }));
  }
}

describe('GET /activity', () => {
  it('starts with the workspace creation, written by the system', async () => {
    const rows = await list();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'workspace.created',
      actorUserId: null,
      actorLabel: 'system',
      entityType: 'workspace',
      createdAt: '2026-03-10T12:00:00.000Z',
    });
    expect(rows[0].id).toMatch(/^act_/);
    expect(rows[0].detail).toContain('free');
  });

  it('returns the newest 50 by default, newest first; limit 1-200', async () => {
    await addRows(60);
    const rows = await list();
    expect(rows).toHaveLength(50);
    expect(rows[0].detail).toBe('row 59');
    expect(rows[49].detail).toBe('row 10');
    const times = rows.map((r) => r.createdAt);
    expect([...times].sort().reverse()).toEqual(times);

    expect(await list('?limit=1')).toHaveLength(1);
    expect(await list('?limit=200')).toHaveLength(61);
    for (const bad of ['0', '201', '-1', '1.5', 'abc']) {
      const res = await desk.api('GET', `/api/v1/activity?limit=${bad}`);
      expect(res.status, bad).toBe(422);
      expect(res.body).toMatchObject({ error: 'validation_failed', details: [{ field: 'limit' }] });
    }
  });

  it('keeps the order of rows written in the same millisecond', async () => {
    for (let i = 0; i < 5; i++) await inTransaction(desk.services.db, (trx) => recordActivity(trx, desk.clock, { kind: 'signal.created', detail: `same ${i}`, actor: SYSTEM_ACTOR }));
    expect((await list('?kind=signal.created')).map((r) => r.detail)).toEqual(['same 4', 'same 3', 'same 2', 'same 1', 'same 0']);
  });

  it('since: only entries at or after the time; a bad time is rejected', async () => {
    await addRows(5); // 12:01 .. 12:05
    expect((await list('?since=2026-03-10T12:03:00Z')).map((r) => r.detail)).toEqual(['row 4', 'row 3', 'row 2']);
    expect((await list('?since=2026-03-10T13:03:00%2B01:00')).map((r) => r.detail)).toEqual(['row 4', 'row 3', 'row 2']);
    expect(await list('?since=2026-03-11T00:00:00Z')).toEqual([]);
    for (const bad of ['yesterday', '2026-13-01T00:00:00Z', '']) {
      const res = await desk.api('GET', `/api/v1/activity?since=${bad}`);
      expect(res.status, bad).toBe(422);
      expect(res.body.details[0].field).toBe('since');
    }
  });

  it('since: a date alone is the start of that day in the workspace timezone', async () => {
    await desk.api('PATCH', '/api/v1/workspace/timezone', { timezone: 'America/New_York' });
    desk.clock.set('2026-03-11T02:00:00Z'); // 2026-03-10 22:00 in New York
    await inTransaction(desk.services.db, (trx) => recordActivity(trx, desk.clock, { kind: 'signal.received', detail: 'late on the 10th', actor: SYSTEM_ACTOR }));
    desk.clock.set('2026-03-11T05:00:00Z'); // 2026-03-11 01:00 in New York
    await inTransaction(desk.services.db, (trx) => recordActivity(trx, desk.clock, { kind: 'signal.received', detail: 'early on the 11th', actor: SYSTEM_ACTOR }));
    expect((await list('?kind=signal.received&since=2026-03-11')).map((r) => r.detail)).toEqual(['early on the 11th']);
    expect((await list('?kind=signal.received&since=2026-03-10')).map((r) => r.detail)).toEqual(['early on the 11th', 'late on the 10th']);
    const res = await desk.api('GET', '/api/v1/activity?since=2026-02-30');
    expect(res.status).toBe(422);
    expect(res.body.details[0].field).toBe('since');
  });

  it('kind: a comma list of kinds', async () => {
    await desk.api('PATCH', '/api/v1/workspace/plan', { plan: 'pro' });
    await desk.api('PATCH', '/api/v1/workspace/timezone', { timezone: 'Europe/Berlin' });
    await desk.api('PATCH', '/api/v1/workspace/loop', { loopState: 'off' });
    expect((await list('?kind=workspace.plan')).map((r) => r.kind)).toEqual(['workspace.plan']);
    const two = await list(`?kind=${encodeURIComponent('workspace.plan, workspace.loop_state')}`);
    expect(two.map((r) => r.kind).sort()).toEqual(['workspace.loop_state', 'workspace.plan']);
    expect(await list('?kind=')).toHaveLength(4);
    expect(await list('?kind=,,')).toHaveLength(4);
  });

  it('kind: an unknown kind is a 422 naming kind (a typo must not read as an empty log)', async () => {
    for (const bad of ['nothing.like.this', 'workspace.plan,workspace.plna', 'WORKSPACE.PLAN']) {
      const res = await desk.api('GET', `/api/v1/activity?kind=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(422);
      expect(res.body.details).toEqual([{ field: 'kind', message: expect.stringContaining('unknown kinds') }]);
    }
    const res = await desk.api('GET', '/api/v1/activity?kind=workspace.plan,nope.one');
    expect(res.body.message).toContain('nope.one');
    expect(res.body.message).not.toContain('workspace.plan,');
  });

  it('q: words of detail or kind through the search index (last word a prefix), any case, at most 200 characters', async () => {
    await desk.api('PATCH', '/api/v1/workspace/timezone', { timezone: 'Europe/Berlin' });
    await addRows(1, 'source.polled', () => 'spend reached 100% today');
    await addRows(1, 'source.imported', () => 'cost_cap hit');

    expect((await list('?q=berlin')).map((r) => r.kind)).toEqual(['workspace.timezone']);
    expect((await list('?q=BERL')).map((r) => r.kind)).toEqual(['workspace.timezone']);
    expect((await list('?q=WORKSPACE.TIMEZONE')).map((r) => r.kind)).toEqual(['workspace.timezone']);
    expect((await list('?q=source%20polled')).map((r) => r.kind)).toEqual(['source.polled']);
    expect((await list(`?q=${encodeURIComponent('100%')}`)).map((r) => r.kind)).toEqual(['source.polled']);
    // words, not substrings: `%` alone holds no word and matches nothing; `eached` is inside a word
    expect((await list(`?q=${encodeURIComponent('%')}`)).map((r) => r.kind)).toEqual([]);
    expect((await list('?q=eached')).map((r) => r.kind)).toEqual([]);
    expect((await list('?q=cost_cap%20hit')).map((r) => r.kind)).toEqual(['source.imported']);
    expect((await list('?q=t_da')).map((r) => r.kind)).toEqual([]);
    expect(await list('?q=%20%20')).toHaveLength(4);
    expect(await list(`?q=${'a'.repeat(200)}`)).toEqual([]);
    const res = await desk.api('GET', `/api/v1/activity?q=${'a'.repeat(201)}`);
    expect(res.status).toBe(422);
    expect(res.body.details[0].field).toBe('q');
  });

  it('combines the filters', async () => {
    await addRows(3, 'source.renamed');
    await addRows(3, 'source.keywords');
    const rows = await list('?kind=source.renamed,source.keywords&since=2026-03-10T12:03:00Z&q=row%202&limit=1');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'source.keywords', detail: 'row 2' });
  });
});

describe('GET /activity pages', () => {
  /** Writes `n` rows, `perInstant` of them in each millisecond (ties cross page boundaries). */
  async function seed(n: number, perInstant: number, kindOf: (i: number) => ActivityKind = () => 'signal.created') {
    await inTransaction(desk.services.db, async (trx) => {
      for (let i = 0; i < n; i++) {
        if (i % perInstant === 0) desk.clock.advance(MINUTE_MS);
        await recordActivity(trx, desk.clock, { kind: kindOf(i), detail: `row ${i}`, actor: SYSTEM_ACTOR });
      }
    });
  }

  /** Follows nextCursor from the first page to the last. */
  async function readAll(query: string) {
    const rows: Row[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    for (let guard = 0; guard < 100; guard++) {
      const res = await desk.api('GET', `/api/v1/activity?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      rows.push(...res.body.activities);
      sizes.push(res.body.activities.length);
      cursor = res.body.nextCursor;
      if (cursor === null) return { rows, sizes };
    }
    throw new Error('nextCursor never became null');
  }

  it('the audit log is readable to its first row: 450 rows, each once, ending with nextCursor null', async () => {
    await seed(449, 6); // plus workspace.created: 450
    const all = await desk.services.db.selectFrom('activity').select('id').execute();
    expect(all).toHaveLength(450);
    const byDefault = await readAll('');
    expect(byDefault.sizes).toEqual(Array(9).fill(50));
    const details = byDefault.rows.map((r) => r.detail);
    expect(details.slice(0, 449)).toEqual(Array.from({ length: 449 }, (_, i) => `row ${448 - i}`));
    expect(byDefault.rows[449].kind).toBe('workspace.created');
    expect(new Set(byDefault.rows.map((r) => r.id)).size).toBe(450);
    const byMax = await readAll('limit=200');
    expect(byMax.sizes).toEqual([200, 200, 50]);
    expect(byMax.rows.map((r) => r.id)).toEqual(byDefault.rows.map((r) => r.id));
  });

  it('combines the cursor with kind, since and q', async () => {
    await seed(120, 5, (i) => (i % 2 === 0 ? 'source.renamed' : 'source.keywords'));
    // rows 0-4 are at 12:01, 5-9 at 12:02, ...; since 12:05 keeps row 20 and later
    const expected = Array.from({ length: 120 }, (_, i) => 119 - i)
      .filter((i) => i % 2 === 0 && i >= 20 && `row ${i}`.includes('1'))
      .map((i) => `row ${i}`);
    const paged = await readAll(`kind=source.renamed&since=${encodeURIComponent('2026-03-10T12:05:00Z')}&q=1&limit=4`);
    expect(paged.rows.map((r) => r.detail)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(8);
    expect(paged.sizes.slice(0, -1).every((n) => n === 4)).toBe(true);
  });

  it('rejects a cursor it did not serve with 422 naming cursor', async () => {
    for (const bad of ['garbage', encodeCursor(['2026-03-10T12:00:00.000Z', 7]), encodeCursor(['2026-03-10T12:00:00.000Z']), '']) {
      const res = await desk.api('GET', `/api/v1/activity?cursor=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(422);
      expect(res.body.details).toEqual([{ field: 'cursor', message: expect.any(String) }]);
    }
  });
});

describe('activity is written in the same transaction as the change', () => {
  it('a change whose activity row cannot be written is rolled back', async () => {
    const before = (await desk.api('GET', '/api/v1/workspace')).body;
    await sql`CREATE TRIGGER block_activity BEFORE INSERT ON activity BEGIN SELECT RAISE(ABORT, 'activity blocked'); END`.execute(desk.services.db);
    vi.spyOn(console, 'error').mockImplementation(() => {});

    const res = await desk.api('PATCH', '/api/v1/workspace/loop', { loopState: 'off' });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'internal_error', message: expect.any(String) });
    expect(res.body.message).not.toContain('activity blocked');

    await sql`DROP TRIGGER block_activity`.execute(desk.services.db);
    expect((await desk.api('GET', '/api/v1/workspace')).body).toEqual(before);
    expect(await list()).toHaveLength(1);
  });
});
