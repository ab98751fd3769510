import { expect, test, type Page } from '@playwright/test';
import { axeViolations } from './axe';
import { deskForFile } from './desk';
import { APP_PAGES, itemPages, linkedPublicPages, openedStates, openPage, PUBLIC_PAGES, seedDesk, type DeskPage, type Seeded } from './every-page';

/**
 * Issue 29, part 1: WCAG 2.2 AA everywhere. axe-core checks the whole of every page of the app, empty
 * and then filled, and every page of the public site (templates, blog, changelog, roadmap,
 * integrations, pricing, a shared work log): no violation at all, serious or not. Then the keyboard:
 * a skip link first, focus on the new page's heading after navigation, focus following j/k in the
 * review queue, and a visible focus ring.
 */

const desk = deskForFile({ loopOff: true });

let seeded: Promise<Seeded> | undefined;
/** The filled desk, seeded once for the tests that need it (any of them may run alone). */
const filled = () => (seeded ??= seedDesk(desk));

async function expectEveryPageAccessible(page: Page, pages: DeskPage[], state: string) {
  for (const p of pages) {
    await openPage(page, desk.baseUrl, p);
    expect.soft(await axeViolations(page), `${p.name} (${state}, ${p.path})`).toEqual([]);
  }
}

// A whole-page axe run takes about a second on an idle machine, several on a busy one.
const PAGE_BUDGET_MS = 8_000;

test('every page of an empty desk passes axe-core (WCAG 2.2 AA)', async ({ page }) => {
  test.skip(seeded !== undefined, 'the desk is filled already');
  test.setTimeout(APP_PAGES.length * PAGE_BUDGET_MS);
  await page.goto(desk.openUrl);
  await expectEveryPageAccessible(page, APP_PAGES, 'empty');
});

test('every page of a filled desk passes axe-core (WCAG 2.2 AA)', async ({ page }) => {
  const s = await filled();
  const pages = [...APP_PAGES.filter((p) => !p.static), ...itemPages(s), ...openedStates(s)];
  test.setTimeout(pages.length * PAGE_BUDGET_MS);
  await page.goto(desk.openUrl);
  await expectEveryPageAccessible(page, pages, 'filled');
});

test('every public page, and the sign-in screen, pass axe-core (WCAG 2.2 AA)', async ({ page }) => {
  const s = await filled();
  test.setTimeout((PUBLIC_PAGES.length + 7) * PAGE_BUDGET_MS);
  // This page never opened the link with the token: the app shows its sign-in screen.
  const signIn: DeskPage = { name: 'Sign-in', path: '/today' };
  const pages = [signIn, ...PUBLIC_PAGES, ...(await linkedPublicPages(page, desk.baseUrl)), { name: 'Shared work log', path: s.workLogPath }];
  await expectEveryPageAccessible(page, pages, 'public');
});

/** What has focus: its role-ish tag and its text. */
const focused = (page: Page) => page.evaluate(() => ({ tag: document.activeElement?.tagName.toLowerCase(), text: document.activeElement?.textContent?.trim() }));

test('by keyboard: skip link first, focus on the new page heading, j/k move focus in the queue, a visible ring', async ({ page }) => {
  await filled();
  await page.goto(desk.openUrl);
  await expect(page.getByRole('heading', { level: 1, name: 'Today' })).toBeVisible();
  // The first load leaves focus alone.
  expect((await focused(page)).tag).toBe('body');

  // The first Tab reaches the skip link, shown while it has focus; Enter moves to the content.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.querySelector('main')!.contains(document.activeElement))).toBe(true);

  // The focused control shows a solid ring of the focus token.
  const ring = await page.evaluate(() => {
    const s = getComputedStyle(document.activeElement!);
    return { style: s.outlineStyle, width: parseFloat(s.outlineWidth), color: s.outlineColor, shadow: s.boxShadow };
  });
  expect(ring.style === 'solid' && ring.width >= 2 ? 'outline' : ring.shadow, 'a visible focus ring').not.toBe('none');

  // Navigating with the sidebar puts focus on the new page's h1.
  for (const area of ['Signals', 'Outputs']) {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: area }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: area })).toBeFocused();
  }

  // In the review queue j and k move focus with the selection (one title in the tab order).
  const list = page.getByRole('list', { name: 'Outputs' });
  const titles = list.locator('.output-item__title');
  await expect(titles.first()).toHaveAttribute('tabindex', '0');
  await page.keyboard.press('j');
  await expect(titles.nth(1)).toBeFocused();
  await expect(list.locator('li[aria-current="true"] .output-item__title')).toHaveText((await titles.nth(1).textContent())!);
  await page.keyboard.press('k');
  await expect(titles.first()).toBeFocused();
  // Enter on the focused title opens it, and focus goes to its page's heading.
  const title = (await titles.first().textContent())!;
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeFocused();
});
