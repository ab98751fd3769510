import { beforeEach, describe, expect, it } from 'vitest';
import type { ActivityKind } from '../../domain/catalog/activity-kinds';
import { MAX_SHARED_SAVED_SEARCHES } from '../../domain/saved-searches/rules';
import { MAX_TASK_TEMPLATES } from '../../domain/templates/rules';
import type { TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { addMember } from '../../testing/fixtures/workspace';
import { useTestDesk } from '../../testing/use-test-desk';

/** API tests of task templates and shared saved searches (issue 9 parts 8 and 9). */

const shared = useTestDesk();
let desk: TestDesk;
beforeEach(() => {
  desk = shared.desk;
});

const aTemplate = (over: Record<string, unknown> = {}) => ({ label: 'Bug triage', title: 'Triage a bug', summary: 'Reproduce, size and route the bug', kind: 'research', deliverableType: 'report', ...over });

async function createTemplate(over: Record<string, unknown> = {}) {
  const res = await desk.api('POST', '/api/v1/workspace/task-templates', aTemplate(over));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function events(name: string) {
  const rows = await desk.services.db.selectFrom('outboxEvents').selectAll().where('event', '=', name).orderBy('createdAt').execute();
  return rows.map((r) => JSON.parse(r.payload).data);
}

async function activity(kind: ActivityKind) {
  return desk.services.db.selectFrom('activity').selectAll().where('kind', '=', kind).orderBy('createdAt').orderBy('id').execute();
}

const TEMPLATES = '/api/v1/workspace/task-templates';
const SEARCHES = '/api/v1/workspace/shared-saved-searches';

describe('task templates', () => {
  it('creates with every field (trimmed, tags normalised), lists, logs and emits', async () => {
    const owner = (await desk.api('GET', '/api/v1/workspace')).body.ownerUserId;
    const t = await createTemplate({ label: '  Bug triage ', emoji: '🐛', hint: 'For incoming bugs', goal: 'A routed bug', priority: 'high', tags: ['bugs', ' triage ', 'bugs'] });
    expect(t).toEqual({
      id: expect.stringMatching(/^tpl_/),
      label: 'Bug triage',
      emoji: '🐛',
      hint: 'For incoming bugs',
      title: 'Triage a bug',
      summary: 'Reproduce, size and route the bug',
      goal: 'A routed bug',
      kind: 'research',
      deliverableType: 'report',
      priority: 'high',
      tags: ['bugs', 'triage'],
      usageCount: 0,
      lastUsedAt: null,
      createdByUserId: owner,
      createdAt: desk.clock.now().toISOString(),
      updatedAt: desk.clock.now().toISOString(),
    });
    const minimal = await createTemplate({ label: 'Minimal' });
    expect(minimal).toMatchObject({ emoji: null, hint: null, goal: null, priority: null, tags: [] });
    const list = await desk.api('GET', TEMPLATES);
    expect(list.status).toBe(200);
    expect(list.body.templates.map((x: { label: string }) => x.label)).toEqual(['Bug triage', 'Minimal']);
    expect((await activity('task_template.created')).map((a) => a.detail)).toEqual(['Task template created: Bug triage', 'Task template created: Minimal']);
    expect(await events('task_template.created')).toEqual([
      { templateId: t.id, label: 'Bug triage' },
      { templateId: minimal.id, label: 'Minimal' },
    ]);
  });

  it(`allows ${MAX_TASK_TEMPLATES} templates and refuses the ${MAX_TASK_TEMPLATES + 1}st with 409 limit_reached`, async () => {
    for (let i = 1; i <= MAX_TASK_TEMPLATES; i++) await createTemplate({ label: `Template ${i}` });
    await expectRejectedUnchanged(desk, { method: 'POST', path: TEMPLATES, body: aTemplate({ label: 'One too many' }) }, { status: 409, error: 'limit_reached' });
    expect((await desk.api('GET', TEMPLATES)).body.templates).toHaveLength(MAX_TASK_TEMPLATES);
    // deleting one makes room again
    const first = (await desk.api('GET', TEMPLATES)).body.templates[0];
    expect((await desk.api('DELETE', `${TEMPLATES}/${first.id}`)).status).toBe(200);
    await createTemplate({ label: 'One too many' });
  });

  it('keeps labels unique ignoring case, on create and on edit (409)', async () => {
    await createTemplate({ label: 'Bug triage' });
    const other = await createTemplate({ label: 'Release notes' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: TEMPLATES, body: aTemplate({ label: 'bug TRIAGE' }) }, { status: 409, error: 'template_label_exists' });
    await expectRejectedUnchanged(desk, { method: 'PATCH', path: `${TEMPLATES}/${other.id}`, body: { label: ' Bug Triage' } }, { status: 409, error: 'template_label_exists' });
    // a template may change the case of its own label
    const renamed = await desk.api('PATCH', `${TEMPLATES}/${other.id}`, { label: 'RELEASE notes' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.label).toBe('RELEASE notes');
  });

  it('refuses fields out of bounds and bad tags with 422 naming the field, changing nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ label: '' }, 'label'],
      [{ label: '   ' }, 'label'],
      [{ label: 'x'.repeat(61) }, 'label'],
      [{ title: '' }, 'title'],
      [{ title: 'x'.repeat(201) }, 'title'],
      [{ summary: '' }, 'summary'],
      [{ summary: 'x'.repeat(2001) }, 'summary'],
      [{ kind: '' }, 'kind'],
      [{ kind: 'investigation' }, 'kind'],
      [{ deliverableType: 'doc' }, 'deliverableType'],
      [{ priority: 'asap' }, 'priority'],
      [{ emoji: 'x'.repeat(17) }, 'emoji'],
      [{ hint: 'x'.repeat(201) }, 'hint'],
      [{ goal: 'x'.repeat(1001) }, 'goal'],
      [{ tags: ['Not A Tag'] }, 'tags[0]'],
      [{ tags: ['ok', 'bad--tag'] }, 'tags[1]'],
      [{ tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, 'tags'],
      [{ asUserId: 'usr_nobody' }, 'asUserId'],
    ];
    for (const [over, field] of cases) {
      await expectRejectedUnchanged(desk, { method: 'POST', path: TEMPLATES, body: aTemplate(over) }, { field });
    }
    // missing required fields
    await expectRejectedUnchanged(desk, { method: 'POST', path: TEMPLATES, body: { label: 'x', title: 't', summary: 's', kind: 'k' } }, { status: 422 });
    // the upper bounds themselves are accepted
    const edge = await createTemplate({ label: 'x'.repeat(60), title: 'x'.repeat(200), summary: 'x'.repeat(2000), kind: 'other', tags: Array.from({ length: 10 }, (_, i) => `t${i}`) });
    expect(edge.tags).toHaveLength(10);
    const t = (await desk.api('GET', TEMPLATES)).body.templates[0];
    await expectRejectedUnchanged(desk, { method: 'PATCH', path: `${TEMPLATES}/${t.id}`, body: { title: '' } }, { field: 'title' });
    await expectRejectedUnchanged(desk, { method: 'PATCH', path: `${TEMPLATES}/${t.id}`, body: { tags: ['UPPER'] } }, { field: 'tags[0]' });
  });

  it('edits the fields given (null clears), logs the change; an unchanged body logs nothing; unknown ids are a 404', async () => {
    const t = await createTemplate({ emoji: '🐛', priority: 'high' });
    desk.clock.advanceMinutes(5);
    const res = await desk.api('PATCH', `${TEMPLATES}/${t.id}`, { title: 'Triage it', emoji: null, tags: ['bugs'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Triage it', emoji: null, priority: 'high', tags: ['bugs'], updatedAt: desk.clock.now().toISOString(), createdAt: t.createdAt });
    expect((await activity('task_template.updated')).map((a) => a.detail)).toEqual(['Task template edited: Bug triage (emoji, title, tags)']);
    expect(await events('task_template.updated')).toEqual([{ templateId: t.id, label: 'Bug triage' }]);
    const again = await desk.api('PATCH', `${TEMPLATES}/${t.id}`, { title: 'Triage it' });
    expect(again.status).toBe(200);
    expect(await activity('task_template.updated')).toHaveLength(1);
    await expectRejectedUnchanged(desk, { method: 'PATCH', path: `${TEMPLATES}/tpl_nope`, body: { title: 'x' } }, { status: 404, error: 'task_template_not_found' });
    await expectRejectedUnchanged(desk, { method: 'DELETE', path: `${TEMPLATES}/tpl_nope` }, { status: 404, error: 'task_template_not_found' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: `${TEMPLATES}/tpl_nope` }, { status: 404, error: 'task_template_not_found' });
  });

  it('records uses (usageCount, lastUsedAt) and deletes (logged, emitted)', async () => {
    const t = await createTemplate();
    desk.clock.advanceMinutes(10);
    const used = await desk.api('POST', `${TEMPLATES}/${t.id}`);
    expect(used.status).toBe(200);
    expect(used.body).toMatchObject({ usageCount: 1, lastUsedAt: desk.clock.now().toISOString() });
    desk.clock.advanceMinutes(10);
    await desk.api('POST', `${TEMPLATES}/${t.id}`);
    expect((await desk.api('GET', TEMPLATES)).body.templates[0]).toMatchObject({ usageCount: 2, lastUsedAt: desk.clock.now().toISOString() });
    expect(await activity('task_template.used')).toHaveLength(2);
    const del = await desk.api('DELETE', `${TEMPLATES}/${t.id}`);
    expect(del.status).toBe(200);
    expect((await desk.api('GET', TEMPLATES)).body.templates).toEqual([]);
    expect(await events('task_template.deleted')).toEqual([{ templateId: t.id, label: 'Bug triage' }]);
  });
});

describe('shared saved searches', () => {
  it('saves with attribution (owner by default, asUserId otherwise), lists newest first, deletes by body', async () => {
    await addMember(desk, 'usr_ada', 'Ada Lovelace');
    const a = await desk.api('POST', SEARCHES, { name: ' Billing bugs ', query: 'billing bug' });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ id: expect.stringMatching(/^srch_/), name: 'Billing bugs', query: 'billing bug', createdByName: 'Owner', createdByInitials: 'O' });
    desk.clock.advanceMinutes(1);
    const b = await desk.api('POST', SEARCHES, { name: 'Mine', query: 'assigned:ada', asUserId: 'usr_ada' });
    expect(b.body).toMatchObject({ createdByUserId: 'usr_ada', createdByName: 'Ada Lovelace', createdByInitials: 'AL', createdByHue: expect.any(Number) });
    expect((await desk.api('GET', SEARCHES)).body.searches.map((s: { name: string }) => s.name)).toEqual(['Mine', 'Billing bugs']);
    expect((await activity('saved_search.created')).map((r) => [r.detail, r.actorUserId])).toEqual([
      ['Shared search saved: Billing bugs (billing bug)', a.body.createdByUserId],
      ['Shared search saved: Mine (assigned:ada)', 'usr_ada'],
    ]);

    const del = await desk.api('DELETE', SEARCHES, { searchId: a.body.id });
    expect(del.status).toBe(200);
    expect((await desk.api('GET', SEARCHES)).body.searches.map((s: { id: string }) => s.id)).toEqual([b.body.id]);
    expect(await events('saved_search.deleted')).toEqual([{ searchId: a.body.id, name: 'Billing bugs', query: 'billing bug', createdByUserId: a.body.createdByUserId }]);
    await expectRejectedUnchanged(desk, { method: 'DELETE', path: SEARCHES, body: { searchId: a.body.id } }, { field: 'searchId' });
    await expectRejectedUnchanged(desk, { method: 'DELETE', path: SEARCHES, body: {} }, { status: 422 });
  });

  it(`allows ${MAX_SHARED_SAVED_SEARCHES} and refuses the ${MAX_SHARED_SAVED_SEARCHES + 1}st with 409 limit_reached`, async () => {
    for (let i = 1; i <= MAX_SHARED_SAVED_SEARCHES; i++) {
      expect((await desk.api('POST', SEARCHES, { name: `Search ${i}`, query: `q${i}` })).status).toBe(201);
    }
    await expectRejectedUnchanged(desk, { method: 'POST', path: SEARCHES, body: { name: 'One too many', query: 'q' } }, { status: 409, error: 'limit_reached' });
    expect((await desk.api('GET', SEARCHES)).body.searches).toHaveLength(MAX_SHARED_SAVED_SEARCHES);
  });

  it('refuses names and queries out of bounds and unknown members with 422', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '', query: 'q' }, 'name'],
      [{ name: '  ', query: 'q' }, 'name'],
      [{ name: 'x'.repeat(81), query: 'q' }, 'name'],
      [{ name: 'n', query: '' }, 'query'],
      [{ name: 'n', query: 'x'.repeat(501) }, 'query'],
      [{ name: 'n', query: 'q', asUserId: 'usr_nobody' }, 'asUserId'],
    ];
    for (const [body, field] of cases) await expectRejectedUnchanged(desk, { method: 'POST', path: SEARCHES, body }, { field });
    expect((await desk.api('POST', SEARCHES, { name: 'x'.repeat(80), query: 'x'.repeat(500) })).status).toBe(201);
  });
});
