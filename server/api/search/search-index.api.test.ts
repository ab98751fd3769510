import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../core/clock';
import { INDEX_PENDING_SQL } from '../../domain/search/search-index';
import { SEARCH_INDEX_JOB } from '../../jobs/search-jobs';
import type { TestDesk } from '../../testing/desk';
import { createSignal } from '../../testing/fixtures/signals';
import { useTestDesk } from '../../testing/use-test-desk';

/**
 * New signals and their arrival activity rows reach the search index in bulk (0017_search_deferred):
 * indexed before the transaction that wrote them commits on the desk's connection, and caught up
 * by GET /search or the search.index job when another connection wrote them.
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
const pending = async () => Number((await sql<{ n: number }>`SELECT count(*) AS n FROM search_pending`.execute(desk.services.db)).rows[0].n);
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

describe('search index kept current for new signals', () => {
  it('indexes a signal and its activity row before POST /signals answers, in every path that reads the index', async () => {
    const signal = await createSignal(desk, { title: 'Quokka sighting near the depot', detail: 'Seen twice' });
    expect(await pending()).toBe(0);
    expect(await indexed(signal.id)).toBe(1);
    expect(await searchIds('quokka', '&kind=signal')).toEqual([`signal:${signal.id}`]);
    expect(await activityIds('quokka')).toEqual([signal.id]);
    // The same columns 0014's triggers wrote for these rows.
    const { rows } = await sql<{ kind: string; title: string; body: string; tags: string; ftsKind: string }>`
      SELECT d.kind, f.title, f.body, f.tags, f.kind AS ftsKind FROM search_fts f JOIN search_docs d ON d.doc_id = f.rowid
      WHERE d.ref = ${signal.id} OR d.ref IN (SELECT id FROM activity WHERE entity_id = ${signal.id}) ORDER BY d.doc_id`.execute(desk.services.db);
    expect(rows).toEqual([
      { kind: 'signal', title: 'Quokka sighting near the depot', body: 'Seen twice', tags: 'news', ftsKind: 'signal' },
      { kind: 'activity', title: '', body: 'Signal created: Quokka sighting near the depot', tags: 'signal.created', ftsKind: 'activity' },
    ]);
    await integrity();
  });

  it('requests answered together are all indexed when they are answered', async () => {
    const created = await Promise.all(Array.from({ length: 12 }, (_, i) => createSignal(desk, { title: `Wombat report ${i}`, detail: 'Batch' })));
    expect(await pending()).toBe(0);
    for (const s of created) expect(await indexed(s.id)).toBe(1);
    expect((await searchIds('wombat', '&kind=signal&limit=50')).sort()).toEqual(created.map((s) => `signal:${s.id}`).sort());
    await integrity();
  });

  it('the inbound webhook path too', async () => {
    const res = await desk.api('POST', `/api/webhooks/signals/${desk.token}`, { signals: [{ title: 'Numbat in the webhook', detail: 'Pushed' }, { title: 'Numbat again', detail: 'Pushed' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await pending()).toBe(0);
    expect((await searchIds('numbat', '&kind=signal')).length).toBe(2);
    expect((await activityIds('numbat')).length).toBe(2);
  });
});

describe('rows another connection wrote', () => {
  it('wait in search_pending until a search, which indexes them first: the answer is the fully indexed one', async () => {
    insertElsewhere('sig_other_1', 'Bilby tracks by the river');
    insertElsewhere('sig_other_2', 'Bilby burrow', 'Bilby again and again');
    expect(await pending()).toBe(4);
    expect(await indexed('sig_other_1')).toBe(0);
    const first = await searchIds('bilby', '&limit=50');
    expect(await pending()).toBe(0);
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
    // The newest row deleted while pending: the next row gets its doc_id again and is pending as itself.
    other.prepare(`INSERT INTO signals (id, kind, priority, title, detail, pinned, created_at) VALUES ('sig_other_6', 'news', 'normal', 'Dingo gone', 'x', 0, ?)`).run(desk.clock.now().toISOString());
    other.prepare(`DELETE FROM signals WHERE id = 'sig_other_6'`).run();
    other.prepare(`INSERT INTO signals (id, kind, priority, title, detail, pinned, created_at) VALUES ('sig_other_7', 'news', 'normal', 'Dugong third', 'x', 0, ?)`).run(desk.clock.now().toISOString());
    expect(await searchIds('dingo', '&kind=signal')).toEqual([]);
    expect((await searchIds('dugong', '&kind=signal')).sort()).toEqual(['signal:sig_other_3', 'signal:sig_other_7']);
    expect(await pending()).toBe(0);
    await integrity();
  });

  it('the search.index job indexes them on its minute, so GET /activity q finds them without a search', async () => {
    insertElsewhere('sig_other_5', 'Echidna spotted');
    expect(await activityIds('echidna')).toEqual([]);
    desk.clock.advance(MINUTE_MS);
    // The tick runs every due job (a loop cycle may log its own rows about the signal too).
    expect(await desk.services.scheduler.tick()).toContain(SEARCH_INDEX_JOB);
    expect(await pending()).toBe(0);
    expect(await activityIds('echidna')).toContain('sig_other_5');
  });
});

describe('the catch-up statement', () => {
  it('reads the pending list first and each row by its key (no scan of the indexed tables)', async () => {
    const { rows } = await sql<{ detail: string }>`EXPLAIN QUERY PLAN ${sql.raw(INDEX_PENDING_SQL)}`.execute(desk.services.db);
    const plan = rows.map((r) => r.detail).join('\n');
    expect(plan).toMatch(/SCAN p/);
    expect(plan).toMatch(/SEARCH d USING INTEGER PRIMARY KEY/);
    expect(plan).toMatch(/SEARCH r USING INDEX sqlite_autoindex_signals_1/);
    expect(plan).toMatch(/SEARCH r USING INDEX sqlite_autoindex_activity_1/);
    expect(plan).not.toMatch(/SCAN (d|r)\b/);
  });
});
