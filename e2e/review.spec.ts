import { type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { deskForFile, expect, test } from './desk';

/**
 * Issue 30, parts 1-3: read, edit and decide in one place, and undo. The built-in engine drafts the
 * outputs (one Run now over unrelated signals); the test then reads, edits, approves, undoes and
 * re-approves one of them without leaving the Outputs page, by keyboard only. A decision is held for
 * five seconds before it is sent: the browser's clock (Playwright's page.clock) is moved past the
 * hold instead of waiting for it. "Approve all" is held the same way and undone; a decision held
 * while the page goes away is sent at once.
 */

const desk = deskForFile({ loopOff: true });
let titles: string[];

const SIGNALS = [
  { kind: 'review', title: 'Customer asks for annual billing', detail: 'A long-time customer would pay yearly for a discount.' },
  { kind: 'alert', title: 'Disk almost full on the backup server', detail: 'The nightly volume reached 93 percent.' },
  { kind: 'message', title: 'Partner proposes a workshop in Lisbon', detail: 'Their events lead wants dates in May.' },
];

interface Output {
  id: string;
  title: string;
  status: string;
  version: number;
  decidedAt: string | null;
  authorKind: string;
  supersededById: string | null;
  content: string;
}

test.beforeAll(async () => {
  for (const s of SIGNALS) expect((await desk.api('POST', '/api/v1/signals', { ...s, priority: 'normal' })).status).toBe(201);
  const run = await desk.api<{ status: string }>('POST', '/api/v1/runs');
  expect(run.body, JSON.stringify(run.body)).toMatchObject({ status: 'completed' });
  const queue = await desk.api<{ artifacts: { title: string }[] }>('GET', '/api/v1/artifacts?status=ready');
  titles = queue.body.artifacts.map((a) => a.title);
  expect(titles.length).toBeGreaterThanOrEqual(2);
});

const ready = async () => (await desk.api<{ artifacts: Output[] }>('GET', '/api/v1/artifacts?status=ready')).body.artifacts;
const list = (page: Page) => page.getByRole('list', { name: 'Outputs' });
const selected = (page: Page) => list(page).locator('li[aria-current="true"] .output-item__title');
const preview = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });
const notice = (page: Page) => page.locator('.hold-notice-slot');

async function openOutputs(page: Page) {
  await page.clock.install();
  await page.goto(desk.openUrl);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Outputs' }).click();
  await expect(list(page).locator(':scope > li')).toHaveCount((await ready()).length);
  // Keys go to the page, not to the nav link just used.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

test('reads, edits, approves, undoes and re-approves an output on the Outputs page, by keyboard only', async ({ page }) => {
  await openOutputs(page);
  const [first, second] = titles;

  // Read: the selected output's text, sources and versions beside the queue; j/k move both.
  await expect(selected(page)).toHaveText(first);
  await expect(preview(page, first).getByRole('article', { name: 'Content' })).not.toBeEmpty();
  await expect(preview(page, first).getByText('v1 · drafted by the engine')).toBeVisible();
  await expect(preview(page, first).getByRole('list', { name: 'Source signals' }).locator('li')).not.toHaveCount(0);
  await page.keyboard.press('j');
  await expect(selected(page)).toHaveText(second);
  await expect(preview(page, second)).toBeVisible();
  await page.keyboard.press('k');
  await expect(preview(page, first)).toBeVisible();
  await expectAccessible(page);

  // Edit: i opens the box on the draft, focused; Preview renders it; Ctrl+Enter saves a new version.
  await page.keyboard.press('i');
  const box = page.getByRole('textbox', { name: 'Draft, in Markdown' });
  await expect(box).toBeFocused();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type('\n\nSigned, **the operator**.');
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByRole('tab', { name: 'Write' })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tabpanel', { name: 'Preview' }).locator('strong', { hasText: 'the operator' })).toBeVisible();
  await expectAccessible(page, '.output-editor');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Tab');
  await expect(box).toBeFocused();
  await expectAccessible(page, '.output-editor');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(notice(page)).toHaveText(`Saved v2 of “${first}”, written by you. It waits for your decision.`);
  await expect(preview(page, first).getByText(/^v2 · written by /)).toBeVisible();
  await expect(preview(page, first).locator('.output-diff ins')).toContainText('the operator');
  await expect(selected(page)).toHaveText(first);
  const v2 = (await ready()).find((o) => o.title === first)!;
  expect(v2).toMatchObject({ version: 2, authorKind: 'member', status: 'ready' });
  expect((await desk.api<Output>('GET', `/api/v1/artifacts/${v2.id}`)).body.content).toContain('Signed, **the operator**.');
  expect((await ready()).filter((o) => o.title === first)).toHaveLength(1);

  // Approve: held, out of the list, nothing sent yet.
  await page.keyboard.press('a');
  await expect(notice(page)).toContainText(`Approved “${first}”`);
  await expect(notice(page).getByRole('button', { name: 'Undo' })).toBeVisible();
  await expect(list(page).locator('.output-item__title', { hasText: first })).toHaveCount(0);
  // The selection moved on to a neighbour (the edited version may sit elsewhere in the order now).
  await expect(selected(page)).not.toHaveText(first);
  await expect(selected(page)).toBeFocused();
  expect((await ready()).map((o) => o.id)).toContain(v2.id);

  // Undo with u: back in the queue, selected, and still waiting when the hold would have run out.
  await page.keyboard.press('u');
  await expect(notice(page)).toHaveText(`Undone: approved “${first}”.`);
  await expect(selected(page)).toHaveText(first);
  await page.clock.fastForward(6_000);
  expect((await ready()).map((o) => o.id)).toContain(v2.id);

  // Approve again; once the hold runs out it is sent: v2 approved, stamped once.
  await page.keyboard.press('a');
  await expect(notice(page)).toContainText('Undo');
  await page.clock.fastForward(5_000);
  await expect(notice(page)).toHaveText(`Approved “${first}”.`);
  const approved = (await desk.api<Output>('GET', `/api/v1/artifacts/${v2.id}`)).body;
  expect(approved).toMatchObject({ status: 'approved', version: 2, authorKind: 'member' });
  expect(approved.decidedAt).not.toBeNull();
  expect((await ready()).map((o) => o.title)).not.toContain(first);
  await expect(list(page).locator(':scope > li')).toHaveCount(titles.length - 1);
  await expect(page).toHaveURL(/\/outputs\?/);
});

test('"Approve all" asks, is held with an Undo, and u takes it back: nothing is decided', async ({ page }) => {
  await openOutputs(page);
  const waiting = (await ready()).length;
  await page.getByRole('button', { name: 'Approve all' }).click();
  await page.getByRole('group', { name: `Approve all ${waiting} ready outputs?` }).getByRole('button', { name: 'Approve all' }).click();
  await expect(notice(page)).toContainText(`Approved ${waiting} outputs`);
  await expect(page.getByText('Nothing waits for review.')).toBeVisible();
  await page.keyboard.press('u');
  await expect(notice(page)).toHaveText(`Undone: approved ${waiting} outputs.`);
  await expect(list(page).locator(':scope > li')).toHaveCount(waiting);
  await page.clock.fastForward(6_000);
  expect(await ready()).toHaveLength(waiting);
  await expectAccessible(page);
});

test('a decision held when the page goes away is sent at once', async ({ page }) => {
  await openOutputs(page);
  const [target] = await ready();
  await expect(selected(page)).toHaveText(target.title);
  await page.keyboard.press('e');
  await expect(notice(page)).toContainText(`Archived “${target.title}”`);
  await page.goto('about:blank');
  await expect.poll(async () => (await desk.api<Output>('GET', `/api/v1/artifacts/${target.id}`)).body.status).toBe('archived');
});
