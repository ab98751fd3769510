import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../core/clock';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { dbFingerprint } from '../../testing/db-fingerprint';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { insertArtifactRow } from '../../testing/fixtures/artifacts';
import { insertMemoryRow } from '../../testing/fixtures/memory';
import { createManualSource, insertSourceRow } from '../../testing/fixtures/sources';
import { createTask } from '../../testing/fixtures/tasks';

/** The full JSON export and its import into another desk (two real desks per test). */

let a: TestDesk;
let b: TestDesk;
beforeEach(async () => {
  [a, b] = await Promise.all([startTestDesk(), startTestDesk()]);
  b.clock.set(new Date('2026-04-01T09:00:00.000Z'));
});
afterEach(async () => {
  await Promise.all([a.stop(), b.stop()]);
});

const ago = (desk: TestDesk, ms: number) => new Date(desk.clock.now().getTime() - ms).toISOString();

/** Desk A's data: two sources (one with keyword filters), signals with and without a source, memory with tags. */
async function seed(desk: TestDesk) {
  await insertSourceRow(desk, { id: 'src_feed', label: 'Changelog', url: 'https://acme.example/feed.xml', includeKeywords: '["pricing"]', excludeKeywords: '["jobs","hiring"]', pollIntervalMinutes: 60, notes: 'Weekly' });
  await insertSourceRow(desk, { id: 'src_manual', type: 'manual', label: 'Zapier', url: null });
  await desk.services.db
    .insertInto('signals')
    .values([
      { id: 'sig_1', kind: 'news', priority: 'high', title: 'Price change', detail: 'Up 10%', sourceUrl: 'https://acme.example/p', sourceId: 'src_feed', pinned: 1, createdAt: ago(desk, 3 * DAY_MS), publishedAt: ago(desk, 5 * DAY_MS) },
      { id: 'sig_2', kind: 'mention', priority: 'normal', title: 'Tweet', detail: '', sourceUrl: null, sourceId: 'src_manual', pinned: 0, createdAt: ago(desk, 2 * DAY_MS), externalId: 'tw-42' },
      { id: 'sig_3', kind: 'note', priority: 'low', title: 'By hand', detail: 'd', sourceUrl: null, sourceId: null, pinned: 0, createdAt: ago(desk, DAY_MS) },
    ])
    .execute();
  await insertMemoryRow(desk, { id: 'mem_1', kind: 'decision', title: 'Pricing needs approval', content: 'Always ask', importance: 9, pinned: 1, tags: ['pricing', 'policy'], createdAt: ago(desk, 5 * DAY_MS) });
  await insertMemoryRow(desk, { id: 'mem_2', kind: 'lesson', title: 'Old lesson', content: 'Archived one', archivedAt: ago(desk, HOUR_MS), createdAt: ago(desk, 40 * DAY_MS), tags: ['ops'] });
}

async function exportOf(desk: TestDesk) {
  const res = await desk.api('GET', '/api/v1/workspace/export');
  expect(res.status).toBe(200);
  return res;
}

/** What should survive a round trip, without ids. */
async function portable(desk: TestDesk) {
  const db = desk.services.db;
  const sources = await db.selectFrom('sources').select(['type', 'label', 'url', 'notes', 'pollIntervalMinutes', 'includeKeywords', 'excludeKeywords']).orderBy('label').execute();
  const signals = await db
    .selectFrom('signals')
    .leftJoin('sources', 'sources.id', 'signals.sourceId')
    .select(['signals.kind', 'signals.priority', 'signals.title', 'signals.detail', 'signals.sourceUrl', 'signals.externalId', 'signals.pinned', 'signals.publishedAt', 'signals.createdAt', 'sources.label as sourceLabel'])
    .orderBy('signals.createdAt')
    .execute();
  const memory = (await desk.api('GET', '/api/v1/workspace/memory-export?format=json')).body.rows.map(
    (m: Record<string, unknown>) => ({ kind: m.kind, title: m.title, content: m.content, importance: m.importance, pinned: m.pinned, tags: m.tags, archivedAt: m.archivedAt, createdAt: m.createdAt }),
  );
  return { sources, signals, memory };
}

describe('GET /workspace/export', () => {
  it('holds every collection with its counts and the evidence appendices, and no token, share state or key', async () => {
    await seed(a);
    const ingest = await a.api('POST', '/api/v1/sources/src_manual/ingest-tokens', { label: 'Zapier zap' });
    expect(ingest.status).toBe(201);
    const task = await createTask(a);
    const workLog = await a.api('POST', `/api/v1/tasks/${task.id}/share-work-log`, { enable: true });
    const timeline = await a.api('POST', `/api/v1/tasks/${task.id}/share-timeline`, { enable: true });
    await insertArtifactRow(a, { id: 'art_1', taskId: task.id, title: 'Brief', sourceSignalIds: ['sig_1', 'sig_gone'], sourceMemoryIds: ['mem_1'], publicShareToken: 'shr_secret_artifact_token_0123456789' });
    const apiKey = 'sk-test-a-very-secret-key-0123456789';
    expect((await a.api('PUT', '/api/v1/workspace/engine', { engine: 'openai', model: 'gpt-4o-mini', baseUrl: 'http://127.0.0.1:9/v1', apiKey })).status).toBe(200);
    const rotated = await a.api('POST', '/api/v1/workspace/token/rotate');
    const secrets = [a.token, ingest.body.token, workLog.body.publicWorkLogToken, timeline.body.publicTimelineToken, 'shr_secret_artifact_token_0123456789', apiKey];
    expect(rotated.status).toBe(200);
    secrets.push(rotated.body.token);
    for (const s of secrets) expect(typeof s === 'string' && s.length > 8, `secret ${String(s)}`).toBe(true);

    const res = await exportOf(a);
    expect(res.headers.get('content-disposition')).toContain('filename="desk-export.json"');
    const text = JSON.stringify(res.body);
    for (const secret of secrets) expect(text.includes(secret), 'a secret is in the export').toBe(false);
    expect(text).not.toMatch(/publicWorkLogToken|publicTimelineToken|publicShareToken|workLogShared|ingestToken|tokenHash|apiKey/);

    const x = res.body;
    expect(x).toMatchObject({ format: 'desk.workspace-export', version: 1, exportedAt: a.clock.now().toISOString() });
    expect(x.profile.timezone).toBe('UTC');
    expect(x.collections.signals).toEqual({ exported: 3, total: 3, capped: false, cap: 10000 });
    expect(x.collections.memory).toMatchObject({ exported: 2, total: 2, capped: false });
    expect(x.signals.map((s: { id: string }) => s.id)).toEqual(['sig_3', 'sig_2', 'sig_1']);
    expect(x.signals[1]).toMatchObject({ externalId: 'tw-42', sourceId: 'src_manual', publishedAt: null });
    expect(x.signals[2]).toMatchObject({ id: 'sig_1', publishedAt: ago(a, 5 * DAY_MS) });
    expect(x.sources.map((s: { id: string }) => s.id).sort()).toEqual(['src_feed', 'src_manual']);
    expect(x.tasks.map((t: { id: string }) => t.id)).toEqual([task.id]);
    expect(x.artifacts[0]).toMatchObject({ id: 'art_1', publicShareUrl: null });
    expect(x.memory.find((m: { id: string }) => m.id === 'mem_1').tags).toEqual(['policy', 'pricing']);
    expect(x.activity.length).toBeGreaterThan(0);
    const feed = x.evidence.sources.find((s: { sourceId: string }) => s.sourceId === 'src_feed');
    expect(feed).toEqual({ sourceId: 'src_feed', label: 'Changelog', signalCount: 1, recentSignals: [{ id: 'sig_1', title: 'Price change', sourceUrl: 'https://acme.example/p', createdAt: ago(a, 3 * DAY_MS) }] });
    expect(x.evidence.artifacts).toEqual([
      { artifactId: 'art_1', title: 'Brief', signals: [{ id: 'sig_1', title: 'Price change', sourceUrl: 'https://acme.example/p', createdAt: ago(a, 3 * DAY_MS) }], memory: [{ id: 'mem_1', title: 'Pricing needs approval' }], missingSignalIds: ['sig_gone'], missingMemoryIds: [] },
    ]);
  });

  it("carries who wrote each output version, which version replaced it, and each cycle's account", async () => {
    await a.api('POST', '/api/v1/signals', { kind: 'alert', priority: 'normal', title: 'Checkout is down for EU customers', detail: 'Incident: 502s since 09:00' });
    const run = await a.api('POST', '/api/v1/runs');
    expect(run.status).toBe(200);
    expect(run.body.explanation).toEqual(expect.any(String));
    const drafted = await a.services.db.selectFrom('artifacts').select('id').where('runId', '=', run.body.id).executeTakeFirstOrThrow();
    const edited = await a.api('POST', `/api/v1/artifacts/${drafted.id}/versions`, { content: 'Edited by the operator.' });
    expect(edited.status).toBe(201);

    const x = (await exportOf(a)).body;
    const byId = (id: string) => x.artifacts.find((r: { id: string }) => r.id === id);
    expect(byId(drafted.id)).toMatchObject({ authorKind: 'engine', authorUserId: null, supersededAt: a.clock.now().toISOString(), supersededById: edited.body.id });
    expect(byId(edited.body.id)).toMatchObject({ authorKind: 'member', authorUserId: edited.body.authorUserId, supersededAt: null, supersededById: null });
    expect(edited.body.authorUserId).toEqual(expect.stringMatching(/^usr_/));
    expect(x.runs.find((r: { id: string }) => r.id === run.body.id).explanation).toBe(run.body.explanation);

    // The outputs export (CSV and JSON) carries them too.
    const rows = (await a.api('GET', '/api/v1/workspace/artifacts-export?format=json')).body.rows;
    expect(rows.find((r: { id: string }) => r.id === drafted.id)).toMatchObject({ authorKind: 'engine', supersededById: edited.body.id });
  });

  it('keeps the newest 10,000 signals and says how many exist', async () => {
    const at = ago(a, DAY_MS);
    for (let i = 0; i < 10_001; i += 500) {
      await a.services.db
        .insertInto('signals')
        .values(Array.from({ length: Math.min(500, 10_001 - i) }, (_, k) => ({ id: `sig_${String(i + k).padStart(5, '0')}`, kind: 'news' as const, priority: 'normal' as const, title: 't', detail: '', sourceUrl: null, sourceId: null, pinned: 0, createdAt: at })))
        .execute();
    }
    const x = (await exportOf(a)).body;
    expect(x.collections.signals).toEqual({ exported: 10000, total: 10001, capped: true, cap: 10000 });
    expect(x.signals).toHaveLength(10000);
    expect(x.signals.some((s: { id: string }) => s.id === 'sig_00000')).toBe(false);
  });
});

describe('POST /workspace/import', () => {
  it('reproduces memory (with tags), signals and sources in a fresh desk, with new ids and links kept', async () => {
    await seed(a);
    const file = (await exportOf(a)).body;
    const before = await dbFingerprint(b.services.db);
    const preview = await b.api('POST', '/api/v1/workspace/import', { data: file, dryRun: true });
    expect(preview.status).toBe(200);
    expect(await dbFingerprint(b.services.db)).toEqual(before);

    const res = await b.api('POST', '/api/v1/workspace/import', { data: file });
    expect(res.status).toBe(200);
    const none = { duplicate: 0, invalid: 0 };
    expect(res.body).toEqual({ dryRun: false, version: 1, exportedAt: file.exportedAt, added: { sources: 2, signals: 3, memory: 2 }, skipped: { sources: none, signals: none, memory: none }, skippedItems: [], unlinkedSignals: 0 });
    expect(preview.body).toEqual({ ...res.body, dryRun: true });

    expect(await portable(b)).toEqual(await portable(a));
    const oldIds = new Set([...file.sources, ...file.signals, ...file.memory].map((r: { id: string }) => r.id));
    const newIds = [
      ...(await b.services.db.selectFrom('sources').select('id').execute()),
      ...(await b.services.db.selectFrom('signals').select('id').execute()),
      ...(await b.services.db.selectFrom('memory').select('id').execute()),
    ].map((r) => r.id);
    expect(newIds.filter((id) => oldIds.has(id))).toEqual([]);
    // History, not new input: the loop does not triage imported signals again; feeds start pending.
    expect((await b.services.db.selectFrom('signals').select('triagedAt').execute()).every((s) => s.triagedAt === b.clock.now().toISOString())).toBe(true);
    expect((await b.services.db.selectFrom('sources').select(['type', 'status']).orderBy('type').execute()).map((s) => `${s.type}:${s.status}`)).toEqual(['manual:connected', 'rss:pending']);

    const activity = await b.services.db.selectFrom('activity').selectAll().where('kind', '=', 'workspace.imported').execute();
    expect(activity).toHaveLength(1);
    expect(activity[0].detail).toBe('Imported 2 sources, 3 signals and 2 memory entries; skipped 0 duplicates and 0 invalid');
    const events = await b.services.db.selectFrom('outboxEvents').select('payload').where('event', '=', 'workspace.imported').execute();
    expect(events.map((e) => JSON.parse(e.payload).data)).toEqual([{ added: { sources: 2, signals: 3, memory: 2 }, duplicates: 0, invalid: 0, exportedAt: file.exportedAt }]);

    // A second import of the same file adds nothing: every item is a duplicate.
    const again = await b.api('POST', '/api/v1/workspace/import', { data: file });
    expect(again.body.added).toEqual({ sources: 0, signals: 0, memory: 0 });
    expect(again.body.skipped).toEqual({ sources: { duplicate: 2, invalid: 0 }, signals: { duplicate: 3, invalid: 0 }, memory: { duplicate: 2, invalid: 0 } });
    expect(again.body.skippedItems).toHaveLength(7);
    expect(again.body.skippedItems.every((s: { reason: string; field: null }) => s.reason === 'duplicate' && s.field === null)).toBe(true);
    expect(await portable(b)).toEqual(await portable(a));
  });

  it('links signals to a matching source already here when sources are not imported, and honours categories', async () => {
    await seed(a);
    const file = (await exportOf(a)).body;
    await createManualSource(b, { label: 'Zapier' });
    const res = await b.api('POST', '/api/v1/workspace/import', { data: file, categories: { sources: false, memory: false } });
    expect(res.body.added).toEqual({ sources: 0, signals: 3, memory: 0 });
    // The feed is not here: its signal comes without a source; the manual one matches by label.
    expect(res.body.unlinkedSignals).toBe(1);
    const linked = await b.services.db.selectFrom('signals').innerJoin('sources', 'sources.id', 'signals.sourceId').select(['signals.title', 'sources.label']).execute();
    expect(linked).toEqual([{ title: 'Tweet', label: 'Zapier' }]);
    expect(await b.services.db.selectFrom('memory').select('id').execute()).toEqual([]);
  });

  it('skips items that break a rule of this desk, naming the field, and imports the rest', async () => {
    await seed(a);
    const file = (await exportOf(a)).body;
    file.signals[0].kind = 'rumour';
    file.memory[0].tags = ['Not A Tag'];
    file.signals.push({ ...file.signals[1], id: 'sig_copy' });
    const res = await b.api('POST', '/api/v1/workspace/import', { data: file });
    expect(res.status).toBe(200);
    expect(res.body.added).toEqual({ sources: 2, signals: 2, memory: 1 });
    expect(res.body.skippedItems).toEqual([
      expect.objectContaining({ category: 'signals', index: 0, id: file.signals[0].id, reason: 'invalid', field: 'signals[0].kind' }),
      expect.objectContaining({ category: 'memory', index: 0, id: file.memory[0].id, reason: 'invalid', field: 'memory[0].tags[0]' }),
      expect.objectContaining({ category: 'signals', index: 3, id: 'sig_copy', reason: 'duplicate', field: null }),
    ]);
  });

  it('refuses a file that is not an export it reads, naming the path, and imports nothing', async () => {
    await seed(a);
    const file = (await exportOf(a)).body;
    const cases: [unknown, string][] = [
      [[1, 2], 'data'],
      [{ ...file, format: 'something-else' }, 'data.format'],
      [{ ...file, version: 2 }, 'data.version'],
      [{ ...file, signals: {} }, 'data.signals'],
      [{ ...file, signals: [file.signals[0], { ...file.signals[1], title: 42 }] }, 'data.signals[1].title'],
      [{ ...file, memory: [null] }, 'data.memory[0]'],
      [{ ...file, sources: [{ ...file.sources[0], id: '' }] }, 'data.sources[0].id'],
      [{ ...file, signals: Array.from({ length: 10_001 }, () => ({})) }, 'data.signals'],
    ];
    for (const [data, field] of cases) await expectRejectedUnchanged(b, { method: 'POST', path: '/api/v1/workspace/import', body: { data } }, { field });
    await expectRejectedUnchanged(b, { method: 'POST', path: '/api/v1/workspace/import', body: { data: file, dryRun: 'yes' } }, { field: 'dryRun' });
    await expectRejectedUnchanged(b, { method: 'POST', path: '/api/v1/workspace/import', body: { data: file, categories: { tasks: true } } }, {});
  });

  it('takes an export file larger than the 1 MB limit of other routes, and refuses one over 64 MB with 413', async () => {
    await seed(a);
    const file = (await exportOf(a)).body;
    const template = file.signals[2];
    // ~2.4 MB: 3000 signals with 800-character details, the size of a few months of a busy desk.
    file.signals = Array.from({ length: 3000 }, (_, i) => ({ ...template, id: `sig_big_${i}`, title: `Signal ${i}`, detail: 'd'.repeat(800) }));
    const big = await b.api('POST', '/api/v1/workspace/import', { data: file, categories: { signals: true } });
    expect(JSON.stringify({ data: file }).length).toBeGreaterThan(2_000_000);
    expect(big.status).toBe(200);
    expect((await b.services.db.selectFrom('signals').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n).toBe(3000);

    const tooBig = await b.api('POST', '/api/v1/workspace/import', { data: { ...file, signals: [{ ...template, detail: 'x'.repeat(65 * 1024 * 1024) }] } });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toMatchObject({ error: 'body_too_large', message: 'The request body is larger than 64mb.' });
    // Every other route keeps the 1 MB limit.
    await expectRejectedUnchanged(b, { method: 'POST', path: '/api/v1/signals', body: { kind: 'note', priority: 'low', title: 't', detail: 'x'.repeat(1_100_000) } }, { status: 413, error: 'body_too_large' });
  });
});
