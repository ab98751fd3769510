import { expect, test, deskForFile } from './desk';

/**
 * The loop through the UI, with the built-in local engine (no key): add a signal, press Run now in
 * the header, and see the cycle turn it into a task and a ready output; open the output and read its
 * content and sources; the Runs page lists the cycle.
 */

// Only the button runs cycles here: a scheduled cycle could take the signal in first.
const desk = deskForFile({ loopOff: true });

test('add a signal, run a cycle now, read the task and the ready output it produced', async ({ page }) => {
  await page.goto(desk.openUrl);
  await expect(page).not.toHaveURL(/token=/);
  const nav = page.getByRole('navigation', { name: 'Main' });

  // ---- a signal, by hand
  await nav.getByRole('link', { name: 'Signals' }).click();
  await page.getByRole('button', { name: 'New signal' }).click();
  const form = page.getByRole('form', { name: 'Add a signal' });
  await form.getByLabel('Kind').selectOption('review');
  await form.getByLabel('Priority').selectOption('high');
  await form.getByLabel('Title').fill('Customer asks for annual billing');
  await form.getByLabel('Detail').fill('A long-time customer wrote that they would pay yearly if we offered a discount.');
  await form.getByLabel('Link').fill('https://example.com/reviews/42');
  await form.getByRole('button', { name: 'Add signal' }).click();
  await expect(page.getByRole('list', { name: 'Signals' }).getByText('Customer asks for annual billing')).toBeVisible();

  // ---- Run now: progress while it runs, then the cycle's result
  const header = page.getByRole('region', { name: 'Loop' });
  await expect(header.getByText('Loop off')).toBeVisible();
  await expect(header.getByText(/^Today/)).toBeVisible();
  await header.getByRole('button', { name: 'Run now' }).click();
  await expect(header.getByText(/^Cycle done:/)).toBeVisible({ timeout: 20_000 });
  await expect(header.getByRole('button', { name: 'Run now' })).toBeEnabled();

  // ---- the task it made
  await nav.getByRole('link', { name: 'Tasks' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tasks' })).toBeVisible();
  const taskLinks = page.locator('.task-item__title');
  await expect(taskLinks.first()).toBeVisible();

  // ---- the ready output, opened: content and sources
  await nav.getByRole('link', { name: 'Outputs' }).click();
  const outputs = page.getByRole('list', { name: 'Outputs' });
  await expect(outputs.getByText('ready for review').first()).toBeVisible();
  await outputs.locator('.output-item__title').first().click();
  await expect(page).toHaveURL(/\/outputs\/art_/);
  const content = page.getByRole('article', { name: 'Content' });
  await expect(content.locator('h2, h3, p').first()).toBeVisible();
  const sources = page.getByRole('list', { name: 'Source signals' });
  await expect(sources.getByRole('link', { name: 'Customer asks for annual billing' })).toHaveAttribute('href', 'https://example.com/reviews/42');
  await expect(page.getByRole('list', { name: 'Versions' }).getByText(/this version/)).toBeVisible();

  // ---- the task link, and the cycle on the Runs page
  await expect(page.getByRole('link', { name: 'Open task' })).toHaveAttribute('href', /\/tasks\/tsk_/);
  await nav.getByRole('link', { name: 'Runs' }).click();
  // The newest cycle is ours (a fresh desk may have run a scheduled one at start, before the loop was turned off).
  const ours = page.getByRole('list', { name: 'Runs' }).locator(':scope > li').first();
  await expect(ours.getByText('completed')).toBeVisible();
  await expect(ours.getByText('run now')).toBeVisible();
  await expect(ours.getByText(/1 new task, 1 output/)).toBeVisible();
  await ours.getByRole('button', { name: 'Show what it read and produced' }).click();
  await expect(ours.getByRole('list', { name: 'Outputs' }).getByRole('link').first()).toHaveAttribute('href', /\/outputs\/art_/);
});
