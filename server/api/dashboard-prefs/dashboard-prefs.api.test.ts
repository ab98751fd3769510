import { beforeEach, describe, expect, it } from 'vitest';
import type { TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { insertTaskRow } from '../../testing/fixtures/tasks';
import { addMember } from '../../testing/fixtures/workspace';
import { useTestDesk } from '../../testing/use-test-desk';

/** API tests of GET/PUT/DELETE /workspace/dashboard-prefs (issue 15, part 4). */

const shared = useTestDesk();
let desk: TestDesk;
beforeEach(() => {
  desk = shared.desk;
});

const PREFS = '/api/v1/workspace/dashboard-prefs';

async function put(body: Record<string, unknown>, userId?: string) {
  const res = await desk.api('PUT', userId ? `${PREFS}?userId=${userId}` : PREFS, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function events(name: string) {
  const rows = await desk.services.db.selectFrom('outboxEvents').selectAll().where('event', '=', name).orderBy('createdAt').execute();
  return rows.map((r) => JSON.parse(r.payload).data);
}

const DEFAULTS = {
  collapsedPanels: [],
  digestPersonalSections: ['approvals', 'loop', 'spend', 'spikes', 'quiet-sources'],
  collapsedActivityBuckets: [],
  digestQuietWeekends: false,
  digestQuietHoursStart: null,
  digestQuietHoursEnd: null,
  panelOrder: ['today', 'whats-new', 'inbox', 'insights', 'reactions'],
  activeWorkSort: 'smart',
  costPanelColumns: ['cost', 'trend', 'detail'],
  costPanelOrder: { task: 'cost-desc', assignee: 'cost-desc', tag: 'cost-desc', source: 'cost-desc', memory: 'cost-desc' },
  costPanelOrderUpdatedAt: { task: null, assignee: null, tag: null, source: null, memory: null },
  taskCommentFilters: [],
  density: 'comfortable',
  densityUpdatedAt: null,
  updatedAt: null,
};

describe('dashboard preferences', () => {
  it('answers the defaults for the owner and for any member', async () => {
    const owner = (await desk.api('GET', '/api/v1/workspace')).body.ownerUserId;
    const res = await desk.api('GET', PREFS);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ userId: owner, ...DEFAULTS });
    await addMember(desk, 'usr_ed', 'Ed', 'editor');
    expect((await desk.api('GET', `${PREFS}?userId=usr_ed`)).body).toEqual({ userId: 'usr_ed', ...DEFAULTS });
  });

  it('writes only the fields present, keeps them per member, logs and emits once per change', async () => {
    await addMember(desk, 'usr_ad', 'Ada', 'admin');
    const first = await put({ collapsedPanels: ['inbox'], panelOrder: ['inbox', 'today'], activeWorkSort: 'due', digestQuietWeekends: true }, 'usr_ad');
    expect(first.rejected).toEqual({ taskCommentFilters: [], costPanelOrder: [], density: null });
    expect(first.prefs).toMatchObject({ userId: 'usr_ad', collapsedPanels: ['inbox'], panelOrder: ['inbox', 'today'], activeWorkSort: 'due', digestQuietWeekends: true, updatedAt: '2026-03-10T12:00:00.000Z' });
    desk.clock.advance(60_000);
    const second = await put({ costPanelColumns: ['cost'], digestQuietHoursStart: 22, digestQuietHoursEnd: 7 }, 'usr_ad');
    expect(second.prefs).toMatchObject({ collapsedPanels: ['inbox'], activeWorkSort: 'due', costPanelColumns: ['cost'], digestQuietHoursStart: 22, digestQuietHoursEnd: 7 });
    // The owner's are untouched.
    expect((await desk.api('GET', PREFS)).body).toMatchObject(DEFAULTS);
    // The same values again change nothing and log nothing.
    await put({ costPanelColumns: ['cost'] }, 'usr_ad');
    const rows = await desk.services.db.selectFrom('activity').select(['kind', 'detail']).where('kind', 'in', ['dashboard_prefs.updated', 'dashboard_prefs.reset']).orderBy('createdAt').execute();
    expect(rows).toEqual([
      { kind: 'dashboard_prefs.updated', detail: 'Dashboard preferences of Ada changed: collapsedPanels, panelOrder, digestQuietWeekends, activeWorkSort' },
      { kind: 'dashboard_prefs.updated', detail: 'Dashboard preferences of Ada changed: costPanelColumns, digestQuietHoursStart, digestQuietHoursEnd' },
    ]);
    expect(await events('dashboard_prefs.updated')).toEqual([
      { userId: 'usr_ad', fields: ['collapsedPanels', 'panelOrder', 'digestQuietWeekends', 'activeWorkSort'] },
      { userId: 'usr_ad', fields: ['costPanelColumns', 'digestQuietHoursStart', 'digestQuietHoursEnd'] },
    ]);
  });

  it('density: applied when the echo is the stored version, rejected (and reported) when stale', async () => {
    const a = await put({ density: 'compact', densityUpdatedAt: null });
    expect(a.prefs.density).toBe('compact');
    expect(a.prefs.densityUpdatedAt).toBe('2026-03-10T12:00:00.000Z');
    // A second tab that read "never set" writes: stale.
    const stale = await put({ density: 'comfortable', densityUpdatedAt: null, activeWorkSort: 'priority' });
    expect(stale.rejected.density).toEqual({ attempted: 'comfortable', current: 'compact', currentUpdatedAt: '2026-03-10T12:00:00.000Z' });
    expect(stale.prefs.density).toBe('compact');
    expect(stale.prefs.activeWorkSort).toBe('priority'); // the rest of the PUT still applies
    // Leaving the echo out means "never set": stale too.
    expect((await put({ density: 'comfortable' })).rejected.density?.current).toBe('compact');
    // Asking for what is stored is no conflict, whatever the echo.
    expect((await put({ density: 'compact', densityUpdatedAt: null })).rejected.density).toBeNull();
    // Echoing what was read wins, and the version moves forward even within the same millisecond.
    const b = await put({ density: 'comfortable', densityUpdatedAt: a.prefs.densityUpdatedAt });
    expect(b.rejected.density).toBeNull();
    expect(b.prefs.density).toBe('comfortable');
    expect(b.prefs.densityUpdatedAt).toBe('2026-03-10T12:00:00.001Z');
    expect((await put({ density: 'compact', densityUpdatedAt: a.prefs.densityUpdatedAt })).rejected.density?.currentUpdatedAt).toBe('2026-03-10T12:00:00.001Z');
  });

  it('costPanelOrder: each axis is checked on its own', async () => {
    const a = await put({ costPanelOrder: { tag: 'name-asc', source: 'cost-asc' }, costPanelOrderUpdatedAt: { tag: null, source: null } });
    expect(a.prefs.costPanelOrder).toMatchObject({ tag: 'name-asc', source: 'cost-asc', task: 'cost-desc' });
    expect(a.prefs.costPanelOrderUpdatedAt).toMatchObject({ tag: '2026-03-10T12:00:00.000Z', source: '2026-03-10T12:00:00.000Z', task: null });
    desk.clock.advance(1000);
    // tag echoes the version read (applies); source echoes null (stale); task never set (applies).
    const b = await put({ costPanelOrder: { tag: 'name-desc', source: 'name-asc', task: 'cost-asc' }, costPanelOrderUpdatedAt: { tag: a.prefs.costPanelOrderUpdatedAt.tag, source: null, task: null } });
    expect(b.rejected.costPanelOrder).toEqual([{ axis: 'source', attempted: 'name-asc', current: 'cost-asc', currentUpdatedAt: '2026-03-10T12:00:00.000Z' }]);
    expect(b.prefs.costPanelOrder).toMatchObject({ tag: 'name-desc', source: 'cost-asc', task: 'cost-asc' });
    expect(b.prefs.costPanelOrderUpdatedAt).toMatchObject({ tag: '2026-03-10T12:00:01.000Z', source: '2026-03-10T12:00:00.000Z', task: '2026-03-10T12:00:01.000Z' });
  });

  it('taskCommentFilters: per entry, stale ones rejected with the current entry; both null removes', async () => {
    const t1 = await insertTaskRow(desk);
    const t2 = await insertTaskRow(desk);
    await addMember(desk, 'usr_ed', 'Ed');
    const a = await put({ taskCommentFilters: [{ taskId: t1, q: ' invoice ', authorId: null, updatedAt: null }, { taskId: t2, authorId: 'usr_ed', updatedAt: null }] });
    expect(a.prefs.taskCommentFilters).toEqual(
      expect.arrayContaining([
        { taskId: t1, q: 'invoice', authorId: null, updatedAt: '2026-03-10T12:00:00.000Z' },
        { taskId: t2, q: null, authorId: 'usr_ed', updatedAt: '2026-03-10T12:00:00.000Z' },
      ]),
    );
    desk.clock.advance(1000);
    const b = await put({ taskCommentFilters: [{ taskId: t1, q: 'refund', updatedAt: null }, { taskId: t2, q: null, authorId: null, updatedAt: '2026-03-10T12:00:00.000Z' }] });
    expect(b.rejected.taskCommentFilters).toEqual([{ taskId: t1, attempted: { q: 'refund', authorId: null }, current: { taskId: t1, q: 'invoice', authorId: null, updatedAt: '2026-03-10T12:00:00.000Z' } }]);
    expect(b.prefs.taskCommentFilters).toEqual([{ taskId: t1, q: 'invoice', authorId: null, updatedAt: '2026-03-10T12:00:00.000Z' }]);
  });

  it('keeps the 200 most recently set comment filters', async () => {
    const owner = (await desk.api('GET', '/api/v1/workspace')).body.ownerUserId;
    const t = await insertTaskRow(desk);
    const rows = Array.from({ length: 200 }, (_, i) => ({ userId: owner, taskId: `tsk_old${String(i).padStart(3, '0')}`, q: 'x', authorId: null, updatedAt: new Date(Date.UTC(2026, 2, 1, 0, i)).toISOString() }));
    await desk.services.db.insertInto('dashboardCommentFilters').values(rows).execute();
    const res = await put({ taskCommentFilters: [{ taskId: t, q: 'new', updatedAt: null }] });
    expect(res.prefs.taskCommentFilters).toHaveLength(200);
    expect(res.prefs.taskCommentFilters[0]).toMatchObject({ taskId: t, q: 'new' });
    expect(res.prefs.taskCommentFilters.some((f: { taskId: string }) => f.taskId === 'tsk_old000')).toBe(false);
    expect(res.prefs.taskCommentFilters.some((f: { taskId: string }) => f.taskId === 'tsk_old001')).toBe(true);
  });

  it('DELETE resets to the defaults (filters too) and logs once; a member on the defaults logs nothing', async () => {
    const t1 = await insertTaskRow(desk);
    await put({ collapsedPanels: ['today'], density: 'compact', taskCommentFilters: [{ taskId: t1, q: 'x', updatedAt: null }] });
    const res = await desk.api('DELETE', PREFS);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(DEFAULTS);
    expect((await desk.api('DELETE', PREFS)).status).toBe(200);
    expect(await desk.services.db.selectFrom('activity').select('kind').where('kind', '=', 'dashboard_prefs.reset').execute()).toHaveLength(1);
    expect(await events('dashboard_prefs.reset')).toHaveLength(1);
  });

  it('rejects bad input with a 422 naming the field, changing nothing', async () => {
    const t1 = await insertTaskRow(desk);
    const cases: [Record<string, unknown>, string][] = [
      [{ collapsedPanels: ['Today'] }, 'collapsedPanels[0]'],
      [{ panelOrder: ['today', 'today'] }, 'panelOrder[1]'],
      [{ panelOrder: Array.from({ length: 31 }, (_, i) => `p${i}`) }, 'panelOrder'],
      [{ digestPersonalSections: ['news'] }, 'digestPersonalSections[0]'],
      [{ collapsedActivityBuckets: ['today', 'today'] }, 'collapsedActivityBuckets[1]'],
      [{ digestQuietHoursStart: 24, digestQuietHoursEnd: 3 }, 'digestQuietHoursStart'],
      [{ digestQuietHoursStart: 22 }, 'digestQuietHoursEnd'],
      [{ digestQuietHoursStart: 5, digestQuietHoursEnd: 5 }, 'digestQuietHoursEnd'],
      [{ activeWorkSort: 'random' }, 'activeWorkSort'],
      [{ costPanelColumns: ['tokens'] }, 'costPanelColumns[0]'],
      [{ costPanelOrder: { task: 'up' } }, 'costPanelOrder.task'],
      [{ density: 'tiny' }, 'density'],
      [{ taskCommentFilters: [{ taskId: 'tsk_nope', q: 'x', updatedAt: null }] }, 'taskCommentFilters[0].taskId'],
      [{ taskCommentFilters: [{ taskId: t1, authorId: 'usr_nope', updatedAt: null }] }, 'taskCommentFilters[0].authorId'],
      [{ taskCommentFilters: [{ taskId: t1, q: 'x'.repeat(201), updatedAt: null }] }, 'taskCommentFilters[0].q'],
    ];
    for (const [body, field] of cases) await expectRejectedUnchanged(desk, { method: 'PUT', path: PREFS, body }, { field });
    await expectRejectedUnchanged(desk, { method: 'PUT', path: `${PREFS}?userId=usr_nobody`, body: { density: 'compact' } }, { field: 'userId' });
    await expectRejectedUnchanged(desk, { method: 'GET', path: `${PREFS}?userId=usr_nobody` }, { field: 'userId' });
    await expectRejectedUnchanged(desk, { method: 'DELETE', path: `${PREFS}?userId=usr_nobody` }, { field: 'userId' });
  });
});
