import { type Page } from '@playwright/test';
import { expect, test, deskForFile, lookAt } from './desk';

/**
 * Dashboard preferences on a real desk: Home's panels collapsed and moved stay so after a reload (the
 * desk keeps them, not the browser), density applies to the whole app, and Reset layout brings back
 * the defaults.
 */

const desk = deskForFile({ loopOff: true });

const order = (page: Page) => page.locator('.home-grid > [data-panel]').evaluateAll((els) => els.map((e) => e.getAttribute('data-panel')));

test('Home panels collapsed and moved survive a reload; density and reset layout', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(desk.openUrl);
  await expect(page).toHaveURL(/\/today$/);
  await expect(page.getByRole('heading', { level: 2, name: "What's new in the last 24 hours" })).toBeVisible();

  await page.getByRole('button', { name: "Collapse What's new" }).click();
  await expect(page.getByRole('region', { name: "What's new (collapsed)" })).toBeVisible();
  await page.getByRole('button', { name: 'Move Inbox up' }).focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => order(page)).toEqual(['today', 'inbox', 'whats-new', 'insights', 'reactions']);
  await expect.poll(async () => (await desk.api<{ collapsedPanels: string[]; panelOrder: string[] }>('GET', '/api/v1/workspace/dashboard-prefs')).body).toMatchObject({
    collapsedPanels: ['whats-new'],
    panelOrder: ['today', 'inbox', 'whats-new', 'insights', 'reactions'],
  });

  await page.reload();
  await expect(page.getByRole('region', { name: "What's new (collapsed)" })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: "What's new in the last 24 hours" })).toBeHidden();
  expect(await order(page)).toEqual(['today', 'inbox', 'whats-new', 'insights', 'reactions']);
  await lookAt(page, 'home-arranged', { fullPage: true });

  // Density: compact everywhere, kept by the desk.
  await page.goto(`${desk.baseUrl}/settings/layout`);
  const layout = page.locator('section#layout');
  await layout.getByRole('radio', { name: /Compact/ }).check();
  await expect(page.locator('html')).toHaveAttribute('data-density', 'compact');
  // The page applies it at once; a full page load (goto) before the desk stored it would abort the PUT.
  await expect.poll(async () => (await desk.api<{ density: string }>('GET', '/api/v1/workspace/dashboard-prefs')).body.density).toBe('compact');
  await page.goto(`${desk.baseUrl}/today`);
  await expect(page.locator('html')).toHaveAttribute('data-density', 'compact');
  await expect(page.getByRole('region', { name: "What's new (collapsed)" })).toBeVisible();
  await lookAt(page, 'home-compact', { fullPage: true });

  // Reset layout: the defaults again.
  await page.goto(`${desk.baseUrl}/settings/layout`);
  await layout.getByRole('button', { name: 'Reset layout' }).click();
  await layout.getByRole('button', { name: 'Reset', exact: true }).click();
  await expect(layout.getByText(/Layout reset/)).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-density', 'comfortable');
  await lookAt(layout, 'settings-layout');
  await page.goto(`${desk.baseUrl}/today`);
  // Expanded again, and still this browser session's since: the first visit's last 24 hours.
  await expect(page.getByRole('heading', { level: 2, name: "What's new in the last 24 hours" })).toBeVisible();
  expect(await order(page)).toEqual(['today', 'whats-new', 'inbox', 'insights', 'reactions']);
});

test('the task order, the Cost page columns and orders, and collapsed activity days are kept by the desk', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  for (const [title, priority] of [
    ['Reply to the pricing question', 'low'],
    ['Fix the onboarding email', 'urgent'],
  ] as const) {
    expect((await desk.api('POST', '/api/v1/tasks', { title, summary: `${title}.`, priority })).status).toBe(201);
  }
  await page.goto(desk.openUrl);
  await expect(page).not.toHaveURL(/token=/);

  // Tasks: sorted by priority, kept after a reload.
  await page.goto(`${desk.baseUrl}/tasks`);
  const titles = () => page.getByRole('list', { name: 'Tasks' }).locator('.task-item__title').allTextContents();
  await expect.poll(titles).toEqual(['Fix the onboarding email', 'Reply to the pricing question']);
  await page.getByLabel('Sort').selectOption('created');
  await expect.poll(titles).toEqual(['Fix the onboarding email', 'Reply to the pricing question']);
  await page.getByLabel('Sort').selectOption('smart');
  await page.getByLabel('Sort').selectOption('priority');
  await expect.poll(async () => (await desk.api<{ activeWorkSort: string }>('GET', '/api/v1/workspace/dashboard-prefs')).body.activeWorkSort).toBe('priority');
  await page.reload();
  await expect(page.getByLabel('Sort')).toHaveValue('priority');
  await lookAt(page, 'tasks-sorted');

  // Cost: the Trend column hidden and tags ordered by name.
  await page.goto(`${desk.baseUrl}/cost`);
  await page.getByRole('checkbox', { name: 'Trend' }).uncheck();
  await page.getByRole('combobox', { name: 'Order of tags' }).selectOption('name-asc');
  await expect.poll(async () => (await desk.api<{ costPanelColumns: string[]; costPanelOrder: { tag: string } }>('GET', '/api/v1/workspace/dashboard-prefs')).body).toMatchObject({
    costPanelColumns: ['cost', 'detail'],
    costPanelOrder: { tag: 'name-asc' },
  });
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Trend' })).not.toBeChecked();
  await expect(page.getByRole('combobox', { name: 'Order of tags' })).toHaveValue('name-asc');
  await lookAt(page, 'cost-layout', { fullPage: true });

  // Activity: today's bucket collapsed, still collapsed after a reload.
  await page.goto(`${desk.baseUrl}/activity`);
  const today = page.getByRole('button', { name: /^Today \(\d+\)$/ });
  await expect(today).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('cell', { name: /Fix the onboarding email/ })).toBeVisible();
  await today.click();
  await expect(today).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('cell', { name: /Fix the onboarding email/ })).toBeHidden();
  await expect.poll(async () => (await desk.api<{ collapsedActivityBuckets: string[] }>('GET', '/api/v1/workspace/dashboard-prefs')).body.collapsedActivityBuckets).toEqual(['today']);
  await page.reload();
  await expect(page.getByRole('button', { name: /^Today \(\d+\)$/ })).toHaveAttribute('aria-expanded', 'false');
  await lookAt(page, 'activity-collapsed');
});
