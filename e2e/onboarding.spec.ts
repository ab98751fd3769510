import { expect, test, deskForFile, lookAt } from './desk';

/**
 * Onboarding from a template on a real desk: an empty desk offers it on Home; the flow browses by
 * category and search, previews a template, leaves out what is unticked, applies it and lands on
 * Memory and Signals showing what was added. The public template page leads into the same flow.
 */

// No cycle may triage the sample signals while the test reads them.
const desk = deskForFile({ loopOff: true });

test('an empty desk starts from a template, end to end', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(desk.openUrl);
  await expect(page).toHaveURL(/\/today$/);
  const start = page.getByRole('region', { name: 'Start from a template' });
  await expect(start).toBeVisible();
  await start.getByRole('link', { name: 'Browse templates' }).click();

  await expect(page).toHaveURL(/\/onboarding$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Start from a template' })).toBeVisible();
  await page.getByRole('button', { name: /^Hospitality & Food \(\d+\)$/ }).click();
  const cards = page.getByRole('list', { name: 'Templates' });
  await expect(cards.getByRole('button', { name: 'Specialty coffee shop' })).toBeVisible();
  await expect(cards.getByRole('button', { name: 'Online fashion boutique' })).toBeHidden();
  await lookAt(page, 'onboarding-browse', { fullPage: true });

  await page.getByRole('button', { name: /^All \(\d+\)$/ }).click();
  await page.getByRole('searchbox', { name: 'Search templates' }).fill('morning queue');
  await expect(cards.getByRole('button')).toHaveCount(1);
  await cards.getByRole('button', { name: 'Specialty coffee shop' }).click();

  await expect(page).toHaveURL(/\/onboarding\?template=specialty-coffee-shop$/);
  await expect(page.getByRole('heading', { name: 'Specialty coffee shop' })).toBeVisible();
  const memories = page.getByRole('region', { name: /^Memories/ });
  const signals = page.getByRole('region', { name: /^Sample signals/ });
  await expect(memories.getByRole('checkbox')).toHaveCount(5);
  await expect(signals.getByRole('checkbox')).toHaveCount(4);
  await memories.getByRole('checkbox').nth(1).uncheck();
  await signals.getByRole('checkbox').nth(3).uncheck();
  await lookAt(page, 'onboarding-preview', { fullPage: true });
  await page.getByRole('button', { name: 'Add 4 memories and 3 signals' }).click();

  await expect(page).toHaveURL(/\/memory$/);
  const notice = page.getByRole('status').filter({ hasText: 'Specialty coffee shop applied' });
  await expect(notice).toContainText('added 4 memories and 3 signals');
  await expect(notice.getByRole('list', { name: 'Memories added' }).getByRole('link')).toHaveCount(4);
  await expect(page.getByText('Bean stock and roast dates').first()).toBeVisible();
  await expect(page.getByText('Wastage target')).toHaveCount(0);
  await lookAt(page, 'onboarding-memory', { fullPage: true });

  await notice.getByRole('link', { name: 'See the signals' }).click();
  await expect(page).toHaveURL(/\/signals$/);
  await expect(page.getByText('Espresso machine group 2 leaking').first()).toBeVisible();
  await expect(page.getByText('Pastry waste 14 % last week')).toHaveCount(0);

  // What the desk holds now, through the API: one activity row for the apply.
  const memory = await desk.api<{ memory: { title: string }[] }>('GET', '/api/v1/memory?limit=50');
  expect(memory.body.memory.map((m) => m.title).sort()).toEqual(['Bean stock and roast dates', 'Espresso machine maintenance', 'Labelled allergens on grab-and-go', 'Queue time matters most']);

  // Home no longer offers it once the desk has memory.
  await page.getByRole('link', { name: 'Today' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Today' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Start from a template' })).toBeHidden();
});

test('the public template page leads into the flow, and applying again adds nothing', async ({ page }) => {
  await page.goto(desk.openUrl);
  await expect(page).toHaveURL(/\/today$/);
  await page.goto(`${desk.baseUrl}/templates/specialty-coffee-shop`);
  await expect(page.getByRole('heading', { level: 1, name: 'Specialty coffee shop' })).toBeVisible();
  await lookAt(page, 'onboarding-public-page', { fullPage: true });
  await page.getByRole('link', { name: 'Use this template in Desk' }).click();
  await expect(page.getByRole('heading', { name: 'Specialty coffee shop' })).toBeVisible();
  await page.getByRole('button', { name: 'Add 5 memories and 4 signals' }).click();
  await expect(page).toHaveURL(/\/memory$/);
  const notice = page.getByRole('status').filter({ hasText: 'Specialty coffee shop applied' });
  // Four memories and three signals were there already: only the two left out before are added.
  await expect(notice).toContainText('added 1 memory and 1 signal; 7 already on the desk were skipped');
});
