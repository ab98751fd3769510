import { beforeEach, describe, expect, it } from 'vitest';
import { ONBOARDING_TEMPLATES } from '../../domain/onboarding/content';
import type { TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { useTestDesk } from '../../testing/use-test-desk';

/** API tests of POST /workspace/onboarding-template/apply. */

const shared = useTestDesk();
let desk: TestDesk;
beforeEach(() => {
  desk = shared.desk;
});

const PATH = '/api/v1/workspace/onboarding-template/apply';
const template = ONBOARDING_TEMPLATES[0];
const apply = (body: unknown) => desk.api('POST', PATH, body);
const db = () => desk.services.db;
const activityRows = () => db().selectFrom('activity').selectAll().where('kind', '=', 'onboarding.template_applied').execute();
const events = async (name: string) => (await db().selectFrom('outboxEvents').select('payload').where('event', '=', name).execute()).map((r) => JSON.parse(r.payload).data);

describe('POST /workspace/onboarding-template/apply', () => {
  it('adds the memories and sample signals with one activity row, and skips them all on a second apply', async () => {
    const res = await apply({ key: template.key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.key).toBe(template.key);
    expect(res.body.added.memories.map((e: { title: string }) => e.title)).toEqual(template.memories.map((m) => m.title));
    expect(res.body.added.signals.map((e: { title: string }) => e.title)).toEqual(template.signals.map((s) => s.title));
    expect(res.body.skipped).toEqual({ memories: [], signals: [] });

    const memory = await db().selectFrom('memory').selectAll().orderBy('title').execute();
    expect(memory.map((r) => r.title)).toEqual(template.memories.map((m) => m.title).sort());
    const firstMemory = memory.find((r) => r.title === template.memories[0].title)!;
    expect(firstMemory).toMatchObject({ kind: template.memories[0].kind, content: template.memories[0].content, importance: template.memories[0].importance, pinned: 0 });
    const signals = await db().selectFrom('signals').selectAll().execute();
    expect(signals.map((r) => r.title).sort()).toEqual(template.signals.map((s) => s.title).sort());
    const firstSignal = signals.find((r) => r.title === template.signals[0].title)!;
    expect(firstSignal).toMatchObject({ kind: template.signals[0].kind, priority: template.signals[0].priority, detail: template.signals[0].detail, sourceId: null });

    // The memory and signals pages read them back.
    expect((await desk.api('GET', '/api/v1/memory?limit=50')).body.memory).toHaveLength(template.memories.length);
    // The search indexes (kept by triggers) hold them too.
    const found = await desk.api('GET', `/api/v1/memory?q=${encodeURIComponent(template.memories[0].title)}`);
    expect(found.body.memory.map((e: { title: string }) => e.title)).toContain(template.memories[0].title);

    const activity = await activityRows();
    expect(activity).toHaveLength(1);
    expect(activity[0]).toMatchObject({ entityType: 'onboarding_template', entityId: template.key });
    expect(activity[0].detail).toContain(template.name);
    expect(await events('onboarding.template_applied')).toEqual([
      { key: template.key, name: template.name, added: { memories: template.memories.length, signals: template.signals.length }, skipped: { memories: 0, signals: 0 } },
    ]);
    expect(await events('memory.created')).toHaveLength(template.memories.length);
    expect(await events('signal.created')).toHaveLength(template.signals.length);

    const again = await apply({ key: template.key });
    expect(again.status).toBe(200);
    expect(again.body.added).toEqual({ memories: [], signals: [] });
    expect(again.body.skipped).toEqual({ memories: template.memories.map((m) => m.title), signals: template.signals.map((s) => s.title) });
    expect(await db().selectFrom('memory').select('id').execute()).toHaveLength(template.memories.length);
    expect(await db().selectFrom('signals').select('id').execute()).toHaveLength(template.signals.length);
  });

  it('adds only the entries picked, or only one half', async () => {
    const picked = await apply({ key: template.key, memoryIndexes: [2, 0, 2], signals: false });
    expect(picked.status).toBe(200);
    expect(picked.body.added.memories.map((e: { title: string }) => e.title)).toEqual([template.memories[0].title, template.memories[2].title]);
    expect(picked.body.added.signals).toEqual([]);
    expect(await db().selectFrom('signals').select('id').execute()).toHaveLength(0);

    const rest = await apply({ key: template.key, memories: false, signalIndexes: [1] });
    expect(rest.body.added.signals.map((e: { title: string }) => e.title)).toEqual([template.signals[1].title]);
    expect(rest.body.added.memories).toEqual([]);
  });

  it('skips an entry whose title is already on the desk', async () => {
    const mine = await desk.api('POST', '/api/v1/memory', { kind: 'fact', title: template.memories[1].title, content: 'Our own wording of it' });
    expect(mine.status).toBe(201);
    const res = await apply({ key: template.key, signals: false });
    expect(res.body.skipped.memories).toEqual([template.memories[1].title]);
    expect(res.body.added.memories).toHaveLength(template.memories.length - 1);
  });

  it('refuses an unknown key with 404 and bad fields with 422, changing nothing', async () => {
    await expectRejectedUnchanged(desk, { method: 'POST', path: PATH, body: { key: 'no-such-template' } }, { status: 404, error: 'template_not_found' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: PATH, body: { key: template.key, memoryIndexes: [0, template.memories.length] } }, { field: 'memoryIndexes[1]' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: PATH, body: { key: template.key, signalIndexes: [-1] } }, { field: 'signalIndexes[0]' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: PATH, body: { key: template.key, memories: 'yes' } });
    await expectRejectedUnchanged(desk, { method: 'POST', path: PATH, body: {} }, { field: 'key' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: PATH, body: { key: template.key, asUserId: 'usr_nobody' } }, { field: 'asUserId' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: PATH, body: { key: template.key }, token: null }, { status: 401 });
  });
});
