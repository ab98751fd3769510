import { expectAccessible } from './axe';
import { expect, test, deskForFile } from './desk';

/**
 * Issue 30, point 8: a 200-character title without a space (a pasted URL, a hash) made a task page
 * 5,414 px wide. At 1024 px the task page, the task list and the search dropdown keep it inside the
 * window; the task's tab names it ("<title> · Tasks · Desk"); the page links the signal it came from.
 */

const desk = deskForFile({ loopOff: true });
const LONG = `Investigate${'x'.repeat(180)}-incident`;

test('a 200-character title without spaces wraps on the task page, the list and the search dropdown at 1024 px', async ({ page }) => {
  expect(LONG).toHaveLength(200);
  const signal = await desk.api<{ id: string }>('POST', '/api/v1/signals', { kind: 'alert', priority: 'high', title: LONG, detail: 'Checkout **returns 502** for EU customers' });
  expect(signal.status).toBe(201);
  const run = await desk.api<{ produced: { createdTaskIds: string[] } }>('POST', '/api/v1/runs');
  expect(run.status).toBe(200);
  const taskId = run.body.produced.createdTaskIds[0];
  expect(taskId).toMatch(/^tsk_/);
  const task = await desk.api<{ title: string }>('GET', `/api/v1/tasks/${taskId}`);

  await page.setViewportSize({ width: 1024, height: 800 });
  await page.goto(desk.openUrl);
  const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

  await page.goto(`${desk.baseUrl}/tasks/${taskId}`);
  await expect(page.getByRole('heading', { level: 1, name: task.body.title })).toBeVisible();
  expect(await sideways()).toBeLessThanOrEqual(0);
  await expect(page).toHaveTitle(`${task.body.title} · Tasks · Desk`);
  const signals = page.getByRole('list', { name: 'Signals this task came from' });
  await expect(signals.getByRole('link', { name: LONG })).toHaveAttribute('href', `/signals?signal=${signal.body.id}`);
  expect(await sideways()).toBeLessThanOrEqual(0);
  await expectAccessible(page);

  await page.getByRole('link', { name: '← Tasks' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tasks' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Tasks' }).getByRole('link', { name: task.body.title })).toBeVisible();
  expect(await sideways()).toBeLessThanOrEqual(0);
  await expect(page).toHaveTitle('Tasks · Desk');

  const search = page.getByRole('combobox', { name: 'Search the desk' });
  await search.fill('Investigate');
  const hits = page.getByRole('listbox', { name: 'Search results' }).getByRole('option');
  await expect(hits.first()).toBeVisible();
  expect(await sideways()).toBeLessThanOrEqual(0);
  const panel = await page.locator('#search-results').evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(panel).toBeLessThanOrEqual(0);
  // Snippets are plain words: the detail's Markdown is not shown.
  await search.fill('returns');
  await expect(page.locator('.search-box__snippet').filter({ hasText: 'returns 502' }).first()).toBeVisible();
  await expect(page.locator('.search-box__snippet').filter({ hasText: '**' })).toHaveCount(0);
});
