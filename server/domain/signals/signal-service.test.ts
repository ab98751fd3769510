import { CompiledQuery } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inTransaction } from '../../../db/transactions';
import { DAY_MS } from '../../core/clock';
import { encodeCursor } from '../../core/lists';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { SYSTEM_ACTOR } from '../activity/activity';
import { ingestItems } from '../sources/source-store';
import { readInboundDelivery } from './signal-rules';
import { signalListQuery, type SignalListFilter } from './signal-view';

let desk: TestDesk;

beforeEach(async () => {
  desk = await startTestDesk();
});

afterEach(async () => {
  await desk.stop();
});

async function planOf(filter: SignalListFilter): Promise<string> {
  const compiled = signalListQuery(desk.services.db, filter).compile();
  const { rows } = await desk.services.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]));
  return rows.map((r) => r.detail).join('\n');
}

const receive = (body: unknown, key?: string) => desk.services.signals.receive(readInboundDelivery(body, key));

/** The outbox's signal.created events, oldest first. */
async function createdEvents() {
  const rows = await desk.services.db.selectFrom('outboxEvents').select(['event', 'payload']).where('event', '=', 'signal.created').orderBy('id').execute();
  return rows.map((r) => JSON.parse(r.payload).data);
}

describe('SignalService', () => {
  it('serves every page from signals_newest, or signals_source_newest when filtered by source, with no sort step', async () => {
    const after = ['2026-03-10T12:00:00.000Z', 42] as const;
    const since = '2026-01-01T00:00:00.000Z';
    for (const f of [{}, { since }, { after }, { since, after }]) {
      const plan = await planOf({ fetch: 51, ...f });
      expect(plan, JSON.stringify(f)).toMatch(/(SEARCH|SCAN) signals USING INDEX signals_newest/);
      expect(plan).not.toMatch(/TEMP B-TREE/);
    }
    // a cursor page is a range of the index, not a scan from its top
    expect(await planOf({ fetch: 51, after })).toMatch(/SEARCH signals USING INDEX signals_newest \(<expr><\?\)/);
    for (const f of [{ sourceId: 'src_x' }, { sourceId: 'src_x', since, after }]) {
      const plan = await planOf({ fetch: 51, ...f });
      expect(plan).toMatch(/SEARCH signals USING INDEX signals_source_newest \(source_id=\?/);
      expect(plan).not.toMatch(/TEMP B-TREE/);
    }
  });

  it('a cursor of the wrong shape is a 422 naming cursor, never a silent full list', async () => {
    for (const cursor of ['nope', encodeCursor(['2026-03-10T12:00:00.000Z', 'not-a-rowid']), encodeCursor(['2026-03-10T12:00:00.000Z']), encodeCursor([1, 2])]) {
      await expect(desk.services.signals.list({ cursor }), cursor).rejects.toMatchObject({ status: 422, details: [{ field: 'cursor' }] });
    }
  });

  it('keeps idempotency keys 7 days: a repeat within them replays, after them it is a new delivery', async () => {
    const first = await receive({ title: 'one' }, 'key-1');
    expect(first.replayed).toBe(false);
    desk.clock.advance(7 * DAY_MS - 1);
    const again = await receive({ title: 'one' }, 'key-1');
    expect(again).toEqual({ replayed: true, result: first.result });
    desk.clock.advance(2);
    const later = await receive({ title: 'one' }, 'key-1');
    expect(later.replayed).toBe(false);
    expect(later.result.signalIds[0]).not.toBe(first.result.signalIds[0]);
    // the expired row was pruned on the way; only the new one is kept, under the webhook's scope
    const keys = await desk.services.db.selectFrom('idempotencyKeys').selectAll().execute();
    expect(keys).toEqual([{ key: 'signals-webhook:key-1', response: JSON.stringify(later.result), createdAt: desk.clock.now().toISOString() }]);
  });

  it('a signal whose externalId is on the desk is not created again, even inside one batch', async () => {
    const a = await receive({ signals: [{ title: 'a', externalId: 'ext-1' }, { title: 'a again', externalId: 'ext-1' }, { title: 'b' }] });
    expect(a.result.accepted).toBe(2);
    expect(a.result.duplicates).toBe(1);
    expect(a.result.signalIds[1]).toBe(a.result.signalIds[0]);
    const b = await receive({ title: 'a', externalId: 'ext-1' });
    expect(b.result).toEqual({ accepted: 0, duplicates: 1, signalIds: [a.result.signalIds[0]] });
    const signals = (await desk.services.signals.list({ limit: 10 })).rows;
    expect(signals.map((x) => x.title).sort()).toEqual(['a', 'b']);
    expect(signals.find((x) => x.title === 'a')?.externalId).toBe('ext-1');
  });
});

describe('signal.created', () => {
  it('is emitted once per new signal, whatever the path, with its origin', async () => {
    const manual = await desk.services.signals.create({ kind: 'note', priority: 'high', title: 'by hand', detail: '' });
    const pushed = await receive({ signals: [{ title: 'pushed', kind: 'alert' }, { title: 'again', externalId: 'e1' }, { title: 'dup', externalId: 'e1' }] });

    const feed = (await desk.api('POST', '/api/v1/sources', { type: 'rss', label: 'Feed', url: 'http://127.0.0.1:9/feed' })).body.id as string;
    const row = await desk.services.db.selectFrom('sources').selectAll().where('id', '=', feed).executeTakeFirstOrThrow();
    const item = (key: string) => ({ key, title: key, detail: '', sourceUrl: null, kind: 'news' as const, priority: 'low' as const });
    const polled = await inTransaction(desk.services.db, (trx) => ingestItems(trx, desk.clock, row, [item('polled'), item('polled')], SYSTEM_ACTOR));
    const imported = await inTransaction(desk.services.db, (trx) => ingestItems(trx, desk.clock, { ...row, type: 'file' }, [item('imported')], SYSTEM_ACTOR));

    expect(await createdEvents()).toEqual([
      { signalId: manual.id, kind: 'note', priority: 'high', title: 'by hand', sourceId: null, origin: 'manual' },
      { signalId: pushed.result.signalIds[0], kind: 'alert', priority: 'normal', title: 'pushed', sourceId: null, origin: 'webhook' },
      { signalId: pushed.result.signalIds[1], kind: 'other', priority: 'normal', title: 'again', sourceId: null, origin: 'webhook' },
      { signalId: polled.signalIds[0], kind: 'news', priority: 'low', title: 'polled', sourceId: feed, origin: 'feed' },
      { signalId: imported.signalIds[0], kind: 'news', priority: 'low', title: 'imported', sourceId: feed, origin: 'file' },
    ]);
  });

  it('is not emitted by a replayed delivery, nor by a rejected one', async () => {
    await receive({ title: 'once' }, 'k1');
    await receive({ title: 'once' }, 'k1');
    await expect(receive({ signals: [{ title: 'ok' }, { title: 'bad', sourceId: 'src_missing' }] })).rejects.toMatchObject({ status: 422 });
    expect((await createdEvents()).map((e) => e.title)).toEqual(['once']);
  });
});
