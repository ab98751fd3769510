import { expect, test, deskForFile, lookAt } from './desk';

/**
 * The roadmap and the health badge on a real desk: vote from the app's Roadmap page and see the
 * public page count it; create the badge in Settings, see the live image, rotate it and the old
 * URL shows "unknown"; the public pricing page has an anchor per plan.
 */

const desk = deskForFile({ loopOff: true });

test('Roadmap: vote, take it back, the public page counts it', async ({ page }) => {
  await page.goto(desk.openUrl);
  await page.getByRole('link', { name: 'Roadmap' }).click();
  await expect(page).toHaveURL(/\/roadmap-votes$/);
  const now = page.getByRole('list', { name: 'Now items' });
  const mailbox = now.getByRole('listitem', { name: 'Mailbox as a source' });
  await mailbox.getByRole('button', { name: 'Vote for Mailbox as a source', pressed: false }).click();
  const voted = mailbox.getByRole('button', { name: 'Vote for Mailbox as a source', pressed: true });
  await expect(voted).toBeVisible();
  await expect(mailbox.locator('.roadmap__count')).toHaveText('1 vote');
  await expect(page.getByText('Most requested:')).toBeVisible();
  await lookAt(page, 'roadmap', { fullPage: true });

  const publicPage = await (await fetch(`${desk.baseUrl}/roadmap`)).text();
  expect(publicPage).toContain('1 vote · 1 this week');

  await voted.click();
  await expect(mailbox.getByRole('button', { name: 'Vote for Mailbox as a source', pressed: false })).toBeVisible();
  await expect(mailbox.locator('.roadmap__count')).toHaveText('0 votes');
});

test('Health badge: create, see it, rotate; the old URL shows unknown', async ({ page }) => {
  await page.goto(desk.openUrl);
  await page.getByRole('link', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Health badge' });
  await section.getByRole('button', { name: 'Create badge' }).click();
  const img = section.getByRole('img', { name: 'Desk health badge' });
  await expect(img).toBeVisible();
  // The image really loaded (an SVG of the badge's width).
  await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(50);
  const oldUrl = (await img.getAttribute('src')) ?? '';
  expect(await (await fetch(oldUrl)).text()).toContain('desk health: 100/100');

  await section.getByRole('button', { name: 'Rotate token' }).click();
  await section.getByRole('button', { name: 'Rotate', exact: true }).click();
  await expect(img).not.toHaveAttribute('src', oldUrl);
  expect(await (await fetch(oldUrl)).text()).toContain('desk health: unknown');
  await expect(section.getByLabel('Markdown', { exact: true })).toHaveValue(/^!\[Desk health\]\(http:\/\/127\.0\.0\.1:\d+\/api\/v1\/badge\.svg\?token=dbt_/);
});

test('Pricing page: one anchor per plan', async ({ page }) => {
  await page.goto(`${desk.baseUrl}/pricing#plan-pro`);
  for (const slug of ['free', 'pro', 'team']) await expect(page.locator(`#plan-${slug}`)).toBeVisible();
  await expect(page.locator('#plan-pro')).toContainText('$29');
});
