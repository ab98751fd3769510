import { expect, test } from './desk';

/** The guard every spec runs under (e2e/desk.ts): a console error or an uncaught page error fails the test. */

test.fail('a console error fails the test', async ({ page }) => {
  await page.setContent('<p>quiet page</p>');
  await page.evaluate(() => console.error('something broke'));
});

test.fail('an uncaught page error fails the test', async ({ page }) => {
  await page.setContent('<script>throw new Error("uncaught")</script>');
  await page.evaluate(() => document.title);
});

test('an allowed error, named with its reason, passes; the guard still saw it', async ({ page, consoleGuard }) => {
  consoleGuard.allow(/expected by this test/, 'the test logs it on purpose');
  await page.setContent('<p>quiet page</p>');
  await page.evaluate(() => console.error('expected by this test'));
  await expect.poll(() => consoleGuard.errors()).toEqual([expect.stringMatching(/^console: expected by this test/)]);
});
