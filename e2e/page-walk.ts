import { expect, type Page } from '@playwright/test';
import { axeViolations } from './axe';
import { openPage, type DeskPage } from './every-page';

/**
 * The walk of the every-page specs: each page opened once for axe-core and the layout at 1024 and
 * 768 px (the desktop window's minimum width, main/index.ts). The layout is CSS reacting to the
 * viewport, so a resize shows what a reload at that width would.
 */

// A whole-page axe run takes about a second on an idle machine, several on a busy one.
export const PAGE_BUDGET_MS = 8_000;
const WIDE = { width: 1024, height: 900 };
const NARROW = { width: 768, height: 900 };

/** How far the page reaches past the window's right edge, in CSS pixels (0 when it fits). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** What sticks out past the right edge (a failure names it). */
const widest = (page: Page) =>
  page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      const r = el.getBoundingClientRect();
      const where = el.closest('section[id], section[aria-label]');
      const section = where === null ? '' : ` in ${where.id || where.getAttribute('aria-label')}`;
      if (r.right > window.innerWidth + 1 && r.width > 0) out.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')}${section} right=${Math.round(r.right)}`);
    }
    return out.slice(0, 8);
  });

/** Resizes the window and waits until the page has painted at the new width (what measures itself has measured again). */
async function resize(page: Page, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

async function expectNoSidewaysScroll(page: Page, p: DeskPage): Promise<void> {
  const width = page.viewportSize()!.width;
  const by = await overflow(page);
  expect.soft(by, `${p.name} at ${width} px scrolls sideways by ${by} px: ${(await widest(page)).join(', ')}`).toBeLessThanOrEqual(0);
}

/** Rows of the loop header: an item that starts below every item so far starts a row. */
export const headerRows = (page: Page) =>
  page.locator('.loop-header').evaluate((header) => {
    const boxes = [...header.children].map((c) => c.getBoundingClientRect()).filter((r) => r.height > 0).sort((a, b) => a.top - b.top);
    let count = 0;
    let bottom = -Infinity;
    for (const r of boxes) {
      if (r.top >= bottom - 1) count++;
      bottom = r.top >= bottom - 1 ? r.bottom : Math.max(bottom, r.bottom);
    }
    return count;
  });

/**
 * Opens each page once at 1024 px: axe (unless `axe` says the page was checked already), no sideways
 * scroll; then at 768 px no sideways scroll (and `at768` for more), and back to 1024. `inApp`: the
 * app is open already and each page is reached as the app's links reach it (openPage), not loaded
 * again: a reload booted the whole app for every page, most of the walk's time after axe.
 */
export async function walk(
  page: Page,
  baseUrl: string,
  pages: DeskPage[],
  state: string,
  opts: { inApp?: boolean; axe?: (p: DeskPage) => boolean; layout?: (p: DeskPage) => boolean; at768?: (p: DeskPage) => Promise<void> } = {},
) {
  for (const p of pages) {
    await resize(page, WIDE);
    await openPage(page, baseUrl, p, { inApp: opts.inApp });
    if (opts.axe?.(p) ?? true) expect.soft(await axeViolations(page), `${p.name} (${state}, ${p.path})`).toEqual([]);
    if (!(opts.layout?.(p) ?? true)) continue;
    await expectNoSidewaysScroll(page, p);
    await resize(page, NARROW);
    await expectNoSidewaysScroll(page, p);
    await opts.at768?.(p);
  }
}
