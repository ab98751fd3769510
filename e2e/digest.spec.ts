import fs from 'node:fs';
import path from 'node:path';
import { expect, test, startCliDesk, type RunningCliDesk, lookAt } from './desk';

/**
 * Settings > Digest on a real desk with no SMTP server: the recipients and their gating, the preview
 * of exactly what would be sent, "Send me a preview now" writing an .eml file into the data folder's
 * outbox/, and the audit showing that send.
 */

let desk: RunningCliDesk;

test.beforeAll(async () => {
  desk = await startCliDesk({ env: { DESK_TIMEZONE: 'UTC' } });
  expect((await desk.api('PATCH', '/api/v1/workspace/loop', { loopState: 'off' })).status).toBe(200);
  expect((await desk.api('PATCH', '/api/v1/workspace/digest-email', { digestEmail: 'ops@example.com' })).status).toBe(200);
  // Something to report: a signal turned into a task and an output waiting for approval.
  expect((await desk.api('POST', '/api/v1/signals', { kind: 'review', priority: 'high', title: 'Two-star review mentions slow support', detail: 'A customer waited three days for an answer.' })).status).toBe(201);
  expect((await desk.api('POST', '/api/v1/runs')).status).toBe(200);
});

test.afterAll(async () => {
  await desk?.stop();
});

const emlFiles = () => {
  const dir = path.join(desk.dataDir, 'outbox');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.eml')) : [];
};

test('Digest: recipients and gating, the preview, a preview sent to the outbox, and the audit', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(desk.openUrl);
  await expect(page).not.toHaveURL(/token=/);
  await page.goto(`${desk.baseUrl}/settings/digest`);
  const section = page.locator('section#digest');
  await expect(section.getByRole('heading', { level: 2, name: 'Digest' })).toBeVisible();
  await expect(section.getByText(/no SMTP server set: each digest is written as an \.eml file/)).toBeVisible();

  // The owner gets it at the workspace digest address; nothing mutes it now.
  const recipients = section.getByRole('table', { name: 'Digest recipients' });
  const ownerRow = recipients.getByRole('row').filter({ hasText: 'Owner' });
  await expect(ownerRow.getByText('ops@example.com')).toBeVisible();
  await expect(ownerRow.getByText('Would send', { exact: true })).toBeVisible();

  // Quiet weekends on, then the next Saturday: muted; the preview says so too.
  await section.getByRole('checkbox', { name: 'Mute my digest on weekends' }).check();
  await section.getByRole('radio', { name: 'Another day' }).check();
  const today = new Date();
  const saturday = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + ((6 - today.getUTCDay() + 7) % 7 || 7)));
  await section.getByLabel('Day', { exact: true }).fill(saturday.toISOString().slice(0, 10));
  await expect(ownerRow.getByText('Quiet weekend', { exact: true })).toBeVisible();
  await expect(ownerRow.getByText(/is a weekend and quiet weekends are on/)).toBeVisible();

  // The preview: subject, recipient and the email itself in a sandboxed frame.
  const frame = section.locator('iframe[title="Digest preview for Owner"]');
  await expect(frame).toHaveAttribute('sandbox', '');
  await expect(page.frameLocator('iframe[title="Digest preview for Owner"]').locator('body')).toContainText(/approval|waiting|desk/i);
  await expect(section.locator('.digest-mail__subject')).not.toBeEmpty();
  // The frame shows the simulated day's email (its greeting names the day) before the picture is taken.
  await expect(page.frameLocator('iframe[title="Digest preview for Owner"]').locator('body')).toContainText('Saturday');
  await lookAt(section, 'digest-settings');
  await section.getByRole('heading', { name: 'Preview', exact: true }).scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, -80));
  await lookAt(page, 'digest-preview');

  // Back to now: a one-shot send goes out (no SMTP: an .eml file in the outbox folder).
  await section.getByRole('checkbox', { name: 'Mute my digest on weekends' }).uncheck();
  await section.getByRole('radio', { name: 'Now' }).check();
  // (A daily run that went out meanwhile would have written one too: count from here.)
  const before = emlFiles();
  await section.getByRole('button', { name: 'Send me a preview now' }).click();
  await expect(section.getByText(/written to the outbox folder of the desk’s data folder for ops@example\.com/)).toBeVisible();
  await expect.poll(() => emlFiles().length).toBeGreaterThan(before.length);
  const written = emlFiles().filter((f) => !before.includes(f));
  const eml = fs.readFileSync(path.join(desk.dataDir, 'outbox', written[0]), 'utf8');
  expect(eml).toMatch(/^To: .*ops@example\.com/m);

  // The audit shows the send, and the preference changes before it.
  const audit = section.getByRole('table', { name: 'Digest audit' });
  await expect(audit.getByText('Preview sent', { exact: true })).toBeVisible();
  await expect(audit.getByText('written to the outbox folder', { exact: true })).toBeVisible();
  await expect(audit.getByText('Preferences changed', { exact: true }).first()).toBeVisible();
  await lookAt(section, 'digest-sent');
});
