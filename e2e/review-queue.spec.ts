import { type Page } from '@playwright/test';
import { expect, test, startCliDesk, type RunningCliDesk } from './desk';

/**
 * Issue 11: clear a review queue of three outputs with the keyboard only. The loop's built-in
 * engine drafts the three ready outputs from three unrelated signals (one Run now); the test then
 * moves with j/k, approves with `a`, archives with `e`, and ends on the empty queue, with the
 * decisions visible through the API and the Approved tab. `?` shows the key help. No row is clicked.
 * Each decision is held with an Undo before it is sent (issue 30); the browser's clock is moved past it.
 */

let desk: RunningCliDesk;
let titles: string[];

const SIGNALS = [
  { kind: 'review', title: 'Customer asks for annual billing', detail: 'A long-time customer would pay yearly for a discount.' },
  { kind: 'alert', title: 'Disk almost full on the backup server', detail: 'The nightly volume reached 93 percent.' },
  { kind: 'message', title: 'Partner proposes a workshop in Lisbon', detail: 'Their events lead wants dates in May.' },
];

test.beforeAll(async () => {
  desk = await startCliDesk();
  // Only our Run now drafts here: a scheduled cycle must not take the signals in between.
  expect((await desk.api('PATCH', '/api/v1/workspace/loop', { loopState: 'off' })).status).toBe(200);
  for (const s of SIGNALS) expect((await desk.api('POST', '/api/v1/signals', { ...s, priority: 'normal' })).status).toBe(201);
  const run = await desk.api<{ status: string }>('POST', '/api/v1/runs');
  expect(run.body, JSON.stringify(run.body)).toMatchObject({ status: 'completed' });
  const queue = await desk.api<{ artifacts: { title: string }[] }>('GET', '/api/v1/artifacts?status=ready');
  titles = queue.body.artifacts.map((a) => a.title);
  expect(titles).toHaveLength(3);
});

test.afterAll(async () => {
  await desk?.stop();
});

/** The review notice: a held decision with its Undo, then what was sent. */
const notice = (page: Page) => page.locator('.hold-notice-slot');

/** The selected row's title (the queue marks it with aria-current). */
const selected = (page: Page) => page.getByRole('list', { name: 'Outputs' }).locator('li[aria-current="true"] .output-item__title');

test('clears a queue of three outputs with j, k, a and e, and ? lists the keys', async ({ page }) => {
  // Decisions are held for a few seconds with an Undo (issue 30): the test moves the browser's clock past each hold.
  await page.clock.install();
  await page.goto(desk.openUrl);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Outputs' }).click();
  const list = page.getByRole('list', { name: 'Outputs' });
  await expect(list.locator(':scope > li')).toHaveCount(3);
  // The queue's order is the API's (pinned first, then oldest); the first row starts selected.
  await expect(list.locator('.output-item__title')).toHaveText(titles);
  await expect(selected(page)).toHaveText(titles[0]);

  // Keys go to the page, not to a field or the nav link just used.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

  // ? shows the help with every key, ? again hides it.
  await page.keyboard.press('Shift+Slash');
  const help = page.getByRole('region', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  for (const [key, what] of [
    ['j / k', 'next / previous output'],
    ['a', 'approve the selected output'],
    ['e', 'archive the selected output'],
    ['o / Enter', 'open the selected output'],
    ['?', 'show or hide this help'],
  ]) {
    await expect(help.locator('dt', { hasText: key }).first()).toBeVisible();
    await expect(help.getByText(what)).toBeVisible();
  }
  await page.keyboard.press('Shift+Slash');
  await expect(help).toBeHidden();

  // j and k move the selection.
  await page.keyboard.press('j');
  await expect(selected(page)).toHaveText(titles[1]);
  await page.keyboard.press('j');
  await expect(selected(page)).toHaveText(titles[2]);
  await page.keyboard.press('k');
  await page.keyboard.press('k');
  await expect(selected(page)).toHaveText(titles[0]);

  // a approves the first; the selection moves on to the next output.
  await page.keyboard.press('a');
  await expect(notice(page)).toContainText(`Approved “${titles[0]}” · Undo`);
  await page.clock.fastForward(5_000);
  await expect(notice(page)).toHaveText(`Approved “${titles[0]}”.`);
  await expect(list.locator(':scope > li')).toHaveCount(2);
  await expect(selected(page)).toHaveText(titles[1]);

  // j to the last one, e archives it; the selection falls back to the one left.
  await page.keyboard.press('j');
  await expect(selected(page)).toHaveText(titles[2]);
  await page.keyboard.press('e');
  await expect(notice(page)).toContainText(`Archived “${titles[2]}” · Undo`);
  await page.clock.fastForward(5_000);
  await expect(notice(page)).toHaveText(`Archived “${titles[2]}”.`);
  await expect(list.locator(':scope > li')).toHaveCount(1);
  await expect(selected(page)).toHaveText(titles[1]);

  // a approves the last one: the queue is empty and says so.
  await page.keyboard.press('a');
  await expect(notice(page)).toContainText(`Approved “${titles[1]}” · Undo`);
  await page.clock.fastForward(5_000);
  await expect(notice(page)).toHaveText(`Approved “${titles[1]}”.`);
  await expect(page.getByText('Nothing waits for review.')).toBeVisible();
  await expect(list).toHaveCount(0);

  // Decided, as the API and the UI's other status tabs show them.
  const approved = await desk.api<{ artifacts: { title: string; decidedAt: string | null }[] }>('GET', '/api/v1/artifacts?status=approved');
  expect(approved.body.artifacts.map((a) => a.title).sort()).toEqual([titles[0], titles[1]].sort());
  expect(approved.body.artifacts.every((a) => a.decidedAt !== null)).toBe(true);
  const archived = await desk.api<{ artifacts: { title: string }[] }>('GET', '/api/v1/artifacts?status=archived');
  expect(archived.body.artifacts.map((a) => a.title)).toEqual([titles[2]]);
  expect((await desk.api<{ artifacts: unknown[] }>('GET', '/api/v1/artifacts?status=ready')).body.artifacts).toEqual([]);

  const statusTabs = page.getByRole('radiogroup', { name: 'Status' });
  await statusTabs.getByRole('radio', { name: 'Approved' }).check();
  await expect(list.locator('.output-item__title')).toHaveText([titles[1], titles[0]]);
  await statusTabs.getByRole('radio', { name: 'Archived' }).check();
  await expect(list.locator('.output-item__title')).toHaveText([titles[2]]);
});
