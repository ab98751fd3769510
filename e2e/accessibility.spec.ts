import { test } from '@playwright/test';
import { axeViolations } from './axe';
import { deskForFile } from './desk';
import { APP_PAGES, itemPages, linkedPublicPages, openPage, PUBLIC_PAGES, seedDesk } from './every-page';

const desk = deskForFile({ loopOff: true });

test('explore', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto(desk.openUrl);
  const out: string[] = [];
  for (const p of APP_PAGES) {
    await openPage(page, desk.baseUrl, p);
    const t0 = Date.now();
    const vs = await axeViolations(page);
    console.log(p.name, Date.now() - t0, vs.length);
    for (const v of vs) out.push(`EMPTY ${p.name}: ${v}`);
  }
  const seeded = await seedDesk(desk);
  const publics = [...PUBLIC_PAGES, ...(await linkedPublicPages(page, desk.baseUrl)), { name: 'Share', path: seeded.workLogUrl }];
  for (const p of [...APP_PAGES, ...itemPages(seeded), ...publics]) {
    await openPage(page, desk.baseUrl, p);
    const t0 = Date.now();
    const vs = await axeViolations(page);
    console.log(p.name, Date.now() - t0, vs.length);
    for (const v of vs) out.push(`FILLED ${p.name}: ${v}`);
  }
  console.log(out.join('\n'));
});
