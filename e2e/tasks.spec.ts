import { expect, test, deskForFile } from './desk';

/**
 * Tasks through the UI: create a task on /tasks, open its own page, post an operator note, a comment
 * and a threaded reply; the page and the API show them, and the task's URL opens it directly.
 */

const desk = deskForFile();

test('create a task, open it, post a note, a comment and a threaded reply', async ({ page }) => {
  await page.goto(desk.openUrl);
  await expect(page).not.toHaveURL(/token=/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tasks' })).toBeVisible();

  // ---- create: the form opens the new task's page
  await page.getByRole('button', { name: 'New task' }).click();
  const form = page.getByRole('form', { name: 'New task' });
  await form.getByLabel('Title').fill('Draft the launch brief');
  await form.getByLabel('Summary').fill('One page for the press kit');
  await form.getByLabel('Kind').selectOption('writing');
  await form.getByLabel('Priority').selectOption('high');
  await form.getByLabel('Tags').fill('launch, press');
  await form.getByRole('button', { name: 'Create task' }).click();
  await expect(page).toHaveURL(/\/tasks\/tsk_/);
  await expect(page.getByRole('heading', { level: 1, name: 'Draft the launch brief' })).toBeVisible();
  const taskUrl = page.url();
  const taskId = taskUrl.split('/').pop()!;

  // ---- note
  await page.getByLabel('New note', { exact: true }).fill('Keep it under 300 words');
  await page.getByRole('button', { name: 'Post note' }).click();
  await expect(page.getByRole('list', { name: 'Notes' }).getByText('Keep it under 300 words')).toBeVisible();

  // ---- comment, then a reply in its thread
  await page.getByLabel('New comment', { exact: true }).fill('First draft is in the shared folder');
  await page.getByRole('button', { name: 'Post comment' }).click();
  const comments = page.getByRole('list', { name: 'Comments' });
  await expect(comments.getByText('First draft is in the shared folder')).toBeVisible();
  await comments.getByRole('button', { name: 'Reply' }).click();
  const reply = page.getByRole('form', { name: 'Reply form' });
  await reply.getByLabel('Reply', { exact: true }).fill('Read it: tighten the intro');
  await reply.getByRole('button', { name: 'Post reply' }).click();
  const thread = comments.getByRole('list', { name: /^Replies to / });
  await expect(thread.getByText('Read it: tighten the intro')).toBeVisible();

  // ---- the timeline has them, and the API agrees
  const timeline = page.getByRole('list', { name: 'Timeline' });
  await expect(timeline.getByText('Keep it under 300 words')).toBeVisible();
  await expect(timeline.getByText('Read it: tighten the intro')).toBeVisible();
  const api = (await desk.api<{ comments: { text: string; parentCommentId: string | null; id: string }[] }>('GET', `/api/v1/tasks/${taskId}/comments`)).body;
  expect(api.comments.map((c) => c.text)).toEqual(['First draft is in the shared folder', 'Read it: tighten the intro']);
  expect(api.comments[1].parentCommentId).toBe(api.comments[0].id);
  const notes = (await desk.api<{ notes: { text: string }[] }>('GET', `/api/v1/tasks/${taskId}/notes`)).body;
  expect(notes.notes.map((n) => n.text)).toEqual(['Keep it under 300 words']);

  // ---- the queue links to it, and its URL opens it directly
  await page.getByRole('link', { name: '← Tasks' }).click();
  await expect(page.getByRole('list', { name: 'Tasks' }).getByRole('link', { name: 'Draft the launch brief' })).toHaveAttribute('href', `/tasks/${taskId}`);
  await page.goto(taskUrl);
  await expect(page.getByRole('heading', { level: 1, name: 'Draft the launch brief' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Comments' }).getByText('Read it: tighten the intro')).toBeVisible();
});
