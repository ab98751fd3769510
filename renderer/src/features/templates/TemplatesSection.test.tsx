import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Schema } from '../../api/client';
import { json, noFake, fakeFetch } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';
import { MAX_TEMPLATES, TemplatesSection } from './TemplatesSection';

type Template = Schema<'TaskTemplate'>;

const aTemplate = (id: string, label: string, over: Partial<Template> = {}): Template => ({
  id,
  label,
  emoji: null,
  hint: null,
  title: `${label} task`,
  summary: 'Do it',
  goal: null,
  kind: 'research',
  deliverableType: 'report',
  priority: null,
  tags: [],
  usageCount: 0,
  lastUsedAt: null,
  createdByUserId: 'usr_owner',
  createdAt: '2026-03-01T12:00:00.000Z',
  updatedAt: '2026-03-01T12:00:00.000Z',
  ...over,
});

/** A stateful templates API: label uniqueness (409) and the tag rule (422) like the server. */
function fakeTemplates(initial: Template[]) {
  let templates = [...initial];
  return fakeFetch((call) => {
    const { method, path, body } = call;
    const b = body as Partial<Template>;
    if (method === 'GET' && path === '/api/v1/workspace/task-templates') return json(200, { templates });
    if (method === 'POST' && path === '/api/v1/workspace/task-templates') {
      if (templates.some((t) => t.label.toLowerCase() === b.label!.toLowerCase())) return json(409, { error: 'template_label_exists', message: `A task template is already labelled "${b.label}"` });
      if (b.tags?.some((t) => t !== t.toLowerCase())) return json(422, { error: 'validation_failed', message: 'tags[0] must be lowercase', details: [{ field: 'tags[0]', message: 'must be lowercase' }] });
      const made = aTemplate(`tpl_${templates.length + 1}`, b.label!, { ...b } as Partial<Template>);
      templates = [...templates, made];
      return json(201, made);
    }
    const one = path.match(/^\/api\/v1\/workspace\/task-templates\/([^/]+)$/);
    if (method === 'PATCH' && one) {
      templates = templates.map((t) => (t.id === one[1] ? { ...t, ...b } : t));
      return json(200, templates.find((t) => t.id === one[1]));
    }
    if (method === 'DELETE' && one) {
      const gone = templates.find((t) => t.id === one[1]);
      templates = templates.filter((t) => t.id !== one[1]);
      return json(200, gone);
    }
    if (method === 'GET' && path === '/api/v1/activity') return json(200, { activities: [], nextCursor: null });
    return noFake(call);
  });
}


const list = () => screen.getByRole('list', { name: 'Task templates' });

function fill(form: HTMLElement, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) fireEvent.change(within(form).getByLabelText(label), { target: { value } });
}

describe('Settings > Templates', () => {
  it('lists templates with what they create and how often they were used', async () => {
    fakeTemplates([aTemplate('tpl_1', 'Bug triage', { emoji: '🐛', priority: 'high', tags: ['bugs'], usageCount: 3, lastUsedAt: new Date().toISOString() }), aTemplate('tpl_2', 'Release notes')]);
    renderWithApp(<TemplatesSection />);
    await screen.findByRole('list', { name: 'Task templates' });
    const bug = within(list()).getByRole('listitem', { name: 'Bug triage' });
    expect(within(bug).getByText('Bug triage task · research · report · high · #bugs')).toBeTruthy();
    expect(within(bug).getByText(/^Used 3×/)).toBeTruthy();
    expect(within(within(list()).getByRole('listitem', { name: 'Release notes' })).getByText('Never used')).toBeTruthy();
  });

  it('creates a template (tags split on commas); a duplicate label shows the 409; a bad tag shows next to Tags', async () => {
    const desk = fakeTemplates([aTemplate('tpl_1', 'Bug triage')]);
    renderWithApp(<TemplatesSection />);
    await screen.findByRole('list', { name: 'Task templates' });
    const form = screen.getByRole('form', { name: 'Create template' });
    fill(form, { Label: 'Bug Triage', 'Task title': 'Weekly report', Summary: 'Sum up the week', Kind: 'writing', 'Deliverable type': 'report', Tags: 'Weekly' });
    fireEvent.click(within(form).getByRole('button', { name: 'Create template' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('A task template is already labelled "Bug Triage"');
    fill(form, { Label: 'Weekly' });
    fireEvent.click(within(form).getByRole('button', { name: 'Create template' }));
    expect(await within(form).findByText('must be lowercase')).toBeTruthy();
    fill(form, { Tags: 'weekly, reports' });
    fireEvent.click(within(form).getByRole('button', { name: 'Create template' }));
    await waitFor(() => expect(within(list()).getAllByRole('listitem').map((li) => li.getAttribute('aria-label'))).toEqual(['Bug triage', 'Weekly']));
    expect(desk.calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({
      label: 'Weekly',
      emoji: null,
      title: 'Weekly report',
      summary: 'Sum up the week',
      kind: 'writing',
      deliverableType: 'report',
      priority: null,
      tags: ['weekly', 'reports'],
    });
  });

  it('edits a template in place and deletes one after confirming', async () => {
    const desk = fakeTemplates([aTemplate('tpl_1', 'Bug triage'), aTemplate('tpl_2', 'Release notes')]);
    renderWithApp(<TemplatesSection />);
    await screen.findByRole('list', { name: 'Task templates' });
    fireEvent.click(within(within(list()).getByRole('listitem', { name: 'Bug triage' })).getByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Save Bug triage' });
    expect((within(form).getByLabelText('Task title') as HTMLInputElement).value).toBe('Bug triage task');
    fill(form, { 'Task title': 'Triage the bug' });
    fireEvent.click(within(form).getByRole('button', { name: 'Save Bug triage' }));
    await waitFor(() => expect(within(within(list()).getByRole('listitem', { name: 'Bug triage' })).getByText(/^Triage the bug · /)).toBeTruthy());
    expect(desk.calls.find((c) => c.method === 'PATCH')?.path).toBe('/api/v1/workspace/task-templates/tpl_1');

    const notes = within(list()).getByRole('listitem', { name: 'Release notes' });
    fireEvent.click(within(notes).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(within(notes).getByRole('group')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(list()).getAllByRole('listitem')).toHaveLength(1));
  });

  it(`offers no new template once there are ${MAX_TEMPLATES}`, async () => {
    fakeTemplates(Array.from({ length: MAX_TEMPLATES }, (_, i) => aTemplate(`tpl_${i}`, `T${i}`)));
    renderWithApp(<TemplatesSection />);
    await screen.findByRole('list', { name: 'Task templates' });
    expect(screen.queryByRole('form', { name: 'Create template' })).toBeNull();
    expect(screen.getByText(/delete one to add another/)).toBeTruthy();
  });
});
