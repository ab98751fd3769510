import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fixClock } from '../../testing/clock';
import { fakeFetch, json, noFake } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';
import { TasksPage } from './TasksPage';
import { taskDetail, taskRow } from './testing';

const template = {
  id: 'tpl_1',
  label: 'Competitor scan',
  emoji: '🔎',
  hint: null,
  title: 'Scan competitors',
  summary: 'What changed this week',
  goal: null,
  kind: 'research',
  deliverableType: 'report',
  priority: 'high',
  tags: ['market'],
  usageCount: 0,
  lastUsedAt: null,
  createdByUserId: 'usr_owner',
  createdAt: '2026-03-01T00:00:00.000Z',
  updatedAt: '2026-03-01T00:00:00.000Z',
};

function fakeDesk() {
  return fakeFetch((call) => {
    const { method, path, query, body } = call;
    if (method === 'GET' && path === '/api/v1/tasks') {
      if (query.get('tag') === 'support') return json(200, { tasks: [taskRow('tsk_7', 'Support task', { tags: ['support'] })], nextCursor: null });
      if (query.get('status') === 'done') return json(200, { tasks: [taskRow('tsk_9', 'Finished one', { status: 'done' })], nextCursor: null });
      if (query.get('cursor') === 'p2') return json(200, { tasks: [taskRow('tsk_1', 'Oldest task')], nextCursor: null });
      return json(200, { tasks: [taskRow('tsk_2', 'Newest task', { tags: ['launch'] })], nextCursor: 'p2' });
    }
    if (method === 'GET' && path === '/api/v1/workspace/task-templates') return json(200, { templates: [template] });
    if (method === 'POST' && path === '/api/v1/workspace/task-templates/tpl_1') return json(200, { ...template, usageCount: 1 });
    if (method === 'POST' && path === '/api/v1/tasks') return json(201, taskDetail('tsk_new', (body as { title: string }).title));
    if (method === 'POST' && path === '/api/v1/tasks/bulk') {
      const b = body as { action: 'delete'; taskIds: string[] };
      return json(200, { action: b.action, affected: b.taskIds.length, changed: b.taskIds, unchanged: [], skipped: [], notFound: [] });
    }
    return noFake(call);
  });
}

let desk: ReturnType<typeof fakeDesk>;

beforeEach(() => {
  fixClock('2026-03-10T12:00:00.000Z');
  desk = fakeDesk();
});


describe('TasksPage', () => {
  it('lists the queue with links to each task and loads the next page', async () => {
    renderWithApp(<TasksPage />);
    const list = await screen.findByRole('list', { name: 'Tasks' });
    const link = within(list).getByRole('link', { name: 'Newest task' });
    expect(link.getAttribute('href')).toBe('/tasks/tsk_2');
    expect(within(list).getByText('launch')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await within(list).findByText('Oldest task');
    expect(desk.calls.filter((c) => c.path === '/api/v1/tasks').at(-1)!.query.get('cursor')).toBe('p2');
  });

  it('filters by the statuses picked, as a comma list', async () => {
    renderWithApp(<TasksPage />);
    await screen.findByText('Newest task');
    fireEvent.click(screen.getByRole('checkbox', { name: 'done' }));
    await screen.findByText('Finished one');
    const last = desk.calls.filter((c) => c.path === '/api/v1/tasks').at(-1)!;
    expect(last.query.get('status')).toBe('done');
    expect(last.query.has('cursor')).toBe(false);
  });

  it('filters by a tag typed in the Tag field', async () => {
    renderWithApp(<TasksPage />);
    await screen.findByText('Newest task');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Tag' }), { target: { value: ' Support ' } });
    await screen.findByText('Support task');
    const last = desk.calls.filter((c) => c.path === '/api/v1/tasks').at(-1)!;
    expect(last.query.get('tag')).toBe('support');
    expect(screen.queryByText('Newest task')).toBeNull();
  });

  it('creates a task from a template and records the use', async () => {
    renderWithApp(<TasksPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'New task' }));
    const form = screen.getByRole('form', { name: 'New task' });
    fireEvent.change(await within(form).findByLabelText('Template'), { target: { value: 'tpl_1' } });
    expect((within(form).getByLabelText('Title') as HTMLInputElement).value).toBe('Scan competitors');
    fireEvent.change(within(form).getByLabelText('Due'), { target: { value: '2026-03-20' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create task' }));
    await waitFor(() => expect(desk.calls.some((c) => c.method === 'POST' && c.path === '/api/v1/workspace/task-templates/tpl_1')).toBe(true));
    const created = desk.calls.find((c) => c.method === 'POST' && c.path === '/api/v1/tasks')!;
    expect(created.body).toEqual({
      title: 'Scan competitors',
      summary: 'What changed this week',
      kind: 'research',
      deliverableType: 'report',
      priority: 'high',
      dueAt: '2026-03-20',
      tags: ['market'],
    });
  });

  it('bulk-tags the selected tasks', async () => {
    renderWithApp(<TasksPage />);
    await screen.findByText('Newest task');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Newest task' }));
    fireEvent.change(screen.getByLabelText('Bulk tag'), { target: { value: 'q3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Tag' }));
    expect(await screen.findByText('Tagged 1 task.')).toBeTruthy();
    expect(desk.calls.find((c) => c.path === '/api/v1/tasks/bulk')!.body).toEqual({ action: 'tag', tag: 'q3', taskIds: ['tsk_2'] });
  });
});
