import { expect, test, deskForFile, lookAt } from './desk';

/**
 * Home (the Today area, the start page) on a real desk: a fresh desk shows its first steps; after
 * signals, a cycle and a mention, the tiles count them, what's new lists them, the inbox holds the
 * mention until it is acknowledged, and items link to their pages.
 */

const desk = deskForFile({ loopOff: true });

test('Home: first steps, then today, what is new, the inbox with acknowledge, links', async ({ page }) => {
  await page.goto(desk.openUrl);
  await expect(page).toHaveURL(/\/today$/);
  await expect(page.getByRole('heading', { name: 'Get started' })).toBeVisible();

  // Two signals, a cycle, a member who mentions the owner.
  for (const title of ['Customer asks for annual billing', 'Competitor cut prices']) {
    expect((await desk.api('POST', '/api/v1/signals', { kind: 'news', priority: 'high', title, detail: `${title}.`, sourceUrl: 'https://example.com/x' })).status).toBe(201);
  }
  expect((await desk.api('POST', '/api/v1/runs')).status).toBe(200);
  const invite = await desk.api<{ id: string }>('POST', '/api/v1/workspace/invites', { email: 'ada@example.com', role: 'editor' });
  const ada = await desk.api<{ id: string }>('POST', `/api/v1/workspace/invites/${invite.body.id}/accept`, { name: 'Ada' });
  const task = await desk.api<{ id: string }>('POST', '/api/v1/tasks', { title: 'Annual billing FAQ', summary: 'Write it', tags: ['pricing'] });
  expect((await desk.api('POST', `/api/v1/tasks/${task.body.id}/comments`, { text: '@Owner can you review this?', asUserId: ada.body.id })).status).toBe(201);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Get started' })).toBeHidden();
  await expect(page.getByRole('link', { name: /^Signals 2 / })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Cycles 1 / })).toBeVisible();
  const newSignals = page.getByRole('list', { name: 'New signals' });
  await expect(newSignals.getByRole('link', { name: 'Competitor cut prices' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Top tags' }).getByText('pricing')).toBeVisible();

  const mentions = page.getByRole('list', { name: 'Mentions' });
  await expect(mentions.getByText('@Owner can you review this?')).toBeVisible();
  await lookAt(page, 'home', { fullPage: true });
  await mentions.getByRole('button', { name: /^Acknowledge Ada's mention/ }).click();
  await expect(page.getByRole('list', { name: 'Mentions' })).toBeHidden();

  // A waiting output opens its page.
  await page.getByRole('list', { name: 'Outputs waiting for you' }).getByRole('link').first().click();
  await expect(page).toHaveURL(/\/outputs\/art_/);
});
