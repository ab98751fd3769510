import { test } from '@playwright/test';
import { deskForFile } from './desk';
import { APP_PAGES } from './every-page';
import { PAGE_BUDGET_MS, walk } from './page-walk';

/**
 * Issue 29, part 1: every page of an empty desk, a first-time user's, passes axe-core (WCAG 2.2 AA:
 * no violation at all, serious or not). The filled pages and the layout are every-page-filled.spec.ts;
 * the public site every-page-public.spec.ts (three files, so the browser tests' workers share them).
 */

const desk = deskForFile({ loopOff: true });

test('every page of an empty desk passes axe-core (WCAG 2.2 AA)', async ({ page }) => {
  test.setTimeout(APP_PAGES.length * PAGE_BUDGET_MS);
  await page.goto(desk.openUrl);
  await walk(page, desk.baseUrl, APP_PAGES, 'empty', { inApp: true, layout: () => false });
});
