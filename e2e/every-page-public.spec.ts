import { test } from '@playwright/test';
import { deskForFile } from './desk';
import { linkedPublicPages, PUBLIC_PAGES, seedDesk, type DeskPage } from './every-page';
import { PAGE_BUDGET_MS, walk } from './page-walk';

/**
 * Issue 29, parts 1 and 4, for what a visitor sees without a token: every page of the public site, a
 * shared work log and the app's sign-in screen pass axe-core and hold at 1024 and 768 px.
 */

const desk = deskForFile({ loopOff: true });

test('every public page, the shared work log and the sign-in screen pass axe-core and fit 1024 and 768 px', async ({ page }) => {
  const s = await seedDesk(desk);
  test.setTimeout((PUBLIC_PAGES.length + 7) * PAGE_BUDGET_MS);
  // This page never opened the link with the token: the app shows its sign-in screen.
  const signIn: DeskPage = { name: 'Sign-in', path: '/today' };
  const linked = await linkedPublicPages(page, desk.baseUrl);
  const pages = [signIn, ...PUBLIC_PAGES, ...linked, { name: 'Shared work log', path: s.workLogPath }];
  await walk(page, desk.baseUrl, pages, 'public', { layout: (p) => p !== signIn && !linked.includes(p) });
});
