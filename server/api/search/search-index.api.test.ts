import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../core/clock';
import { INDEX_QUEUE_ROWS, QUEUE_DOCS_SQL, QUEUE_FTS_SQL } from '../../domain/search/search-index';
import { SEARCH_INDEX_JOB } from '../../jobs/search-jobs';
import type { TestDesk } from '../../testing/desk';
import { createSignal } from '../../testing/fixtures/signals';
import { useTestDesk } from '../../testing/use-test-desk';

/**
 * New signals and their arrival activity rows reach the search index in bulk (0018_search_queue):
 * they wait in search_queue until a reader of the index (GET /search, GET /activity q) takes the
 * queue first, INDEX_QUEUE_ROWS rows wait on the desk's connection, or the search.index job
 * sweeps it; whoever wrote them (the desk or another connection).
 */

const shared = useTestDesk();
let desk: TestDesk;
/** A second connection to the desk's file: writes the desk's own connection does not see being made. */
let other: Database.Database;
beforeEach(() => {
  desk = shared.desk;
  other = new Database(path.join(desk.dataDir, 'desk.sqlite'));
  other.pragma('busy_timeout = 5000');
});
afterEach(() => other.close());

const api = (method: string, p: string, body?: unknown) => desk.api(method, `/api/v1${p}`, body);
const queued = async () => Number((await sql<{ n: number }>`SELECT count(*) AS n FROM search_queue`.execute(desk.services.db)).rows[0].n);
const indexed = async (ref: string) =>
  Number((await sql<{ n: number }>`SELECT count(*) AS n FROM search_fts f JOIN search_docs d ON d.doc_id = f.rowid WHERE d.ref = ${ref}`.execute(desk.services.db)).rows[0].n);
const searchIds = async (q: string, extra = '') => {
  const res = await api('GET', `/search?q=${encodeURIComponent(q)}${extra}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { hits: { kind: string; id: string }[] }).hits.map((h) => `${h.kind}:${h.id}`);
};
const activityIds = async (q: string) => {
  const res = await api('GET', `/activity?q=${encodeURIComponent(q)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { activities: { entityId: string | null }[] }).activities.map((a) => a.entityId);
};
const integrity = () => sql`INSERT INTO search_fts (search_fts) VALUES ('integrity-check')`.execute(desk.services.db);

/** A signal and its webhook activity row written on the other connection (as a foreign writer would). */
function insertElsewhere(id: string, title: string, detail = 'Written on another connection'): void {
  const at = desk.clock.now().toISOString();
  other.prepare(`INSERT INTO signals (id, kind, priority, title, detail, pinned, created_at) VALUES (?, 'news', 'normal', ?, ?, 0, ?)`).run(id, title, detail, at);
  other
    .prepare(`INSERT INTO activity (id, kind, detail, actor_user_id, actor_label, entity_type, entity_id, created_at) VALUES (?, 'signal.received', ?, NULL, 'webhook', 'signal', ?, ?)`)
    .run(`act_${id}`, `Signal received through the inbound webhook: ${title}`, id, at);
}

describe('new signals on the desk', () => {
  it('wait in the queue; a search indexes them first, with the columns 0014 gave them', async () => {
    await desk.services.search.indexQueued();
    const signal = await createSignal(desk, { title: 'Quokka sighting near the depot', detail: 'Seen twice' });
    expect(await queued()).toBe(2);
    expect(await indexed(signal.id)).toBe(0);
    expect(await searchIds('quokka', '&kind=signal')).toEqual([`signal:${signal.id}`]);
    expect(await queued()).toBe(0);
    expect(await indexed(signal.id)).toBe(1);
    const { rows } = await sql<{ kind: string; title: string; body: string; tags: string; ftsKind: string }>`
      SELECT d.kind, f.title, f.body, f.tags, f.kind AS ftsKind FROM search_fts f JOIN search_docs d ON d.doc_id = f.rowid
      WHERE d.ref = ${signal.id} OR d.ref IN (SELECT id FROM activity WHERE entity_id = ${signal.id}) ORDER BY d.kind DESC`.execute(desk.services.db);
    expect(rows).toEqual([
      { kind: 'signal', title: 'Quokka sighting near the depot', body: 'Seen twice', tags: 'news', ftsKind: 'signal' },
      { kind: 'activity', title: '', body: 'Signal created: Quokka sighting near the depot', tags: 'signal.created', ftsKind: 'activity' },
    ]);
    await integrity();
  });

  it('GET /activity q takes the queue first too', async () => {
    const signal = await createSignal(desk, { title: 'Platypus by the creek', detail: 'Once' });
    expect(await queued()).toBeGreaterThan(0);
    expect(await activityIds('platypus')).toEqual([signal.id]);
    expect(await queued()).toBe(0);
  });

  it(`are indexed by the batch that queues the ${INDEX_QUEUE_ROWS}th row, without a reader`, async () => {
    await desk.services.search.indexQueued();
    const first = await Promise.all(Array.from({ length: INDEX_QUEUE_ROWS / 2 - 1 }, (_, i) => createSignal(desk, { title: `Wombat report ${i}`, detail: 'Batch' })));
    expect(await queued()).toBe(2 * first.length);
    const last = await createSignal(desk, { title: 'Wombat report last', detail: 'Batch' });
    expect(await queued()).toBe(0);
    for (const s of [...first, last]) expect(await indexed(s.id)).toBe(1);
    await integrity();
  });

  it('the inbound webhook path too', async () => {
    const res = await desk.api('POST', `/api/webhooks/signals/${desk.token}`, { signals: [{ title: 'Numbat in the webhook', detail: 'Pushed' }, { title: 'Numbat again', detail: 'Pushed' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await searchIds('numbat', '&kind=signal')).length).toBe(2);
    expect((await activityIds('numbat')).length).toBe(2);
    expect(await queued()).toBe(0);
  });

  it('a signal deleted while queued leaves the queue with it', async () => {
    const signal = await createSignal(desk, { title: 'Cassowary to be deleted', detail: 'Gone' });
    const before = await queued();
    expect((await api('POST', '/signals/bulk', { action: 'delete', signalIds: [signal.id] })).status).toBe(200);
    expect(await queued()).toBe(before - 1);
    expect(await searchIds('cassowary', '&kind=signal')).toEqual([]);
    await integrity();
  });
});

describe('rows another connection wrote', () => {
  it('wait in search_queue until a search, which indexes them first: the answer is the fully indexed one', async () => {
    insertElsewhere('sig_other_1', 'Bilby tracks by the river');
    insertElsewhere('sig_other_2', 'Bilby burrow', 'Bilby again and again');
    expect(await queued()).toBe(4);
    expect(await indexed('sig_other_1')).toBe(0);
    const first = await searchIds('bilby', '&limit=50');
    expect(await queued()).toBe(0);
    expect([...first].sort()).toEqual(['activity:act_sig_other_1', 'activity:act_sig_other_2', 'signal:sig_other_1', 'signal:sig_other_2']);
    // The query again, over the index as it now stands, answers the same hits in the same order.
    expect(await searchIds('bilby', '&limit=50')).toEqual(first);
    await integrity();
  });

  it('are indexed as they stand at the catch-up: an edit is seen, a deleted row is skipped', async () => {
    insertElsewhere('sig_other_3', 'Dingo first title');
    insertElsewhere('sig_other_4', 'Dingo to be deleted');
    other.prepare(`UPDATE signals SET title = 'Dugong second title' WHERE id = 'sig_other_3'`).run();
    other.prepare(`DELETE FROM signals WHERE id = 'sig_other_4'`).run();
    // A row deleted while queued, then a new one: only the new one is indexed.
    other.prepare(`INSERT INTO signals (id, kind, priority, title, detail, pinned, created_at) VALUES ('sig_other_6', 'news', 'normal', 'Dingo gone', 'x', 0, ?)`).run(desk.clock.now().toISOString());
    other.prepare(`DELETE FROM signals WHERE id = 'sig_other_6'`).run();
    other.prepare(`INSERT INTO signals (id, kind, priority, title, detail, pinned, created_at) VALUES ('sig_other_7', 'news', 'normal', 'Dugong third', 'x', 0, ?)`).run(desk.clock.now().toISOString());
    expect(await searchIds('dingo', '&kind=signal')).toEqual([]);
    expect((await searchIds('dugong', '&kind=signal')).sort()).toEqual(['signal:sig_other_3', 'signal:sig_other_7']);
    expect(await queued()).toBe(0);
    await integrity();
  });

  it('the search.index job indexes them on its minute, without a reader', async () => {
    insertElsewhere('sig_other_5', 'Echidna spotted');
    expect(await indexed('sig_other_5')).toBe(0);
    desk.clock.advance(MINUTE_MS);
    // The tick runs every due job (a loop cycle may log its own rows about the signal too).
    expect(await desk.services.scheduler.tick()).toContain(SEARCH_INDEX_JOB);
    expect(await queued()).toBe(0);
    expect(await indexed('sig_other_5')).toBe(1);
    expect(await activityIds('echidna')).toContain('sig_other_5');
  });
});

describe('the catch-up statements', () => {
  it('read the queue first and each row by its key (no scan of the indexed tables)', async () => {
    for (const statement of [QUEUE_DOCS_SQL, QUEUE_FTS_SQL]) {
      const { rows } = await sql<{ detail: string }>`EXPLAIN QUERY PLAN ${sql.raw(statement)}`.execute(desk.services.db);
      const plan = rows.map((r) => r.detail).join('\n');
      expect(plan).toMatch(/SEARCH q USING PRIMARY KEY|SCAN q/);
      expect(plan).toMatch(/SEARCH r USING INDEX sqlite_autoindex_signals_1/);
      expect(plan).toMatch(/SEARCH r USING INDEX sqlite_autoindex_activity_1/);
      expect(plan).not.toMatch(/SCAN (d|r)\b/);
    }
  });
});
