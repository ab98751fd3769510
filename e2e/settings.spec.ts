import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Page } from '@playwright/test';
import { expect, test, startCliDesk, type RunningCliDesk, lookAt } from './desk';

let desk: RunningCliDesk;

/** A time as a datetime-local value; the browser runs on this machine, in its timezone. */
function localInput(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

test.beforeAll(async () => {
  desk = await startCliDesk();
});

test.afterAll(async () => {
  await desk?.stop();
});

async function openSettings(page: Page, on: RunningCliDesk = desk) {
  await page.goto(on.openUrl);
  // The token leaves the address bar at once and lives on in sessionStorage.
  await expect(page).not.toHaveURL(/token=/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
}

test('settings changed in the UI are what the API reads back; invalid values show next to the field', async ({ page, consoleGuard }) => {
  consoleGuard.allow(/status of 422 .* @ .*\/api\/v1\/workspace\/loop-interval$/, 'an interval below the bound is refused on purpose; the refusal shows next to the field');
  await openSettings(page);
  await lookAt(page, 'settings-initial', { fullPage: true });

  // Approval policy: the default is the Daily preset; choosing Fast saves 4/12.
  const policy = page.getByRole('radiogroup', { name: 'Approval policy' });
  await expect(policy.getByRole('radio', { name: /Daily/ })).toBeChecked();
  await policy.getByRole('radio', { name: /Fast/ }).check();
  await expect(policy.getByRole('radio', { name: /Fast/ })).toBeChecked();
  await expect.poll(async () => (await desk.api('GET', '/api/v1/workspace/approval-policy')).body).toEqual({ watchHours: 4, overdueHours: 12 });

  // Loop interval: saved as requested, with the effective value after the plan floor (free: 15).
  const interval = page.getByLabel('Loop interval (minutes)');
  await expect(interval).toHaveValue('30');
  await interval.fill('45');
  await interval.press('Enter');
  await expect(page.getByText('Effective 45 min (plan floor 15 on free)')).toBeVisible();
  let profile = (await desk.api('GET', '/api/v1/workspace')).body;
  expect(profile.loopIntervalMinutes).toBe(45);
  expect(profile.effectiveLoopIntervalMinutes).toBe(45);

  await interval.fill('5');
  await interval.press('Enter');
  await expect(page.getByText('Effective 15 min (plan floor 15 on free)')).toBeVisible();
  profile = (await desk.api('GET', '/api/v1/workspace')).body;
  expect(profile.loopIntervalMinutes).toBe(5);
  expect(profile.effectiveLoopIntervalMinutes).toBe(15);

  // Both sides of the 1-1440 range: the API's message appears next to the input, nothing changes.
  for (const [bad, message] of [
    ['0', /Must be at least 1/],
    ['1441', /Must be at most 1440/],
  ] as const) {
    await interval.fill(bad);
    await page.locator('form', { has: interval }).getByRole('button', { name: 'Save' }).click();
    await expect(interval).toHaveAttribute('aria-invalid', 'true');
    await expect(interval).toHaveAccessibleDescription(message);
    expect((await desk.api('GET', '/api/v1/workspace')).body.loopIntervalMinutes).toBe(5);
  }
  await lookAt(page, 'settings-error', { fullPage: true });

  // The edges are accepted and the error goes away.
  await interval.fill('1440');
  await interval.press('Enter');
  await expect(interval).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Effective 1440 min (plan floor 15 on free)')).toBeVisible();
  expect((await desk.api('GET', '/api/v1/workspace')).body.loopIntervalMinutes).toBe(1440);

  // A reload keeps the session (sessionStorage) and shows what the server holds.
  await page.reload();
  await expect(page.getByLabel('Loop interval (minutes)')).toHaveValue('1440');
  await expect(page.getByRole('radiogroup', { name: 'Approval policy' }).getByRole('radio', { name: /Fast/ })).toBeChecked();
});

test('more settings: loop state, focus tags, archive threshold and cost cap round-trip through the API', async ({ page, consoleGuard }) => {
  consoleGuard.allow(/status of 422 .* @ .*\/api\/v1\/workspace\/(pause-until|auto-archive-config)$/, 'a past pause and an out-of-bounds threshold are refused on purpose; each refusal shows next to its field');
  await openSettings(page);

  // Scheduled pause: a past time is refused next to the field; a time 2 days ahead pauses, Clear resumes.
  const pauseUntil = page.getByLabel('Pause until');
  await pauseUntil.fill(localInput(new Date(Date.now() - 3_600_000)));
  await page.getByRole('button', { name: 'Schedule pause' }).click();
  await expect(pauseUntil).toHaveAccessibleDescription(/Must be in the future\./);
  expect((await desk.api('GET', '/api/v1/workspace')).body.pauseUntilAt).toBeNull();
  const resumeAt = new Date(Date.now() + 2 * 86_400_000);
  resumeAt.setSeconds(0, 0);
  await pauseUntil.fill(localInput(resumeAt));
  await page.getByRole('button', { name: 'Schedule pause' }).click();
  await expect(page.getByText(/Resumes by itself at/)).toBeVisible();
  await expect(pauseUntil).not.toHaveAttribute('aria-invalid', 'true');
  let ws = (await desk.api('GET', '/api/v1/workspace')).body;
  expect(ws.pauseUntilAt).toBe(resumeAt.toISOString());
  expect(ws.loopState).toBe('paused');
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(page.getByText(/Resumes by itself at/)).toHaveCount(0);
  ws = (await desk.api('GET', '/api/v1/workspace')).body;
  expect(ws.pauseUntilAt).toBeNull();
  expect(ws.loopState).toBe('on');

  await page.getByRole('radiogroup', { name: 'Loop state' }).getByRole('radio', { name: /Paused/ }).check();
  await expect.poll(async () => (await desk.api('GET', '/api/v1/workspace')).body.loopState).toBe('paused');

  // Focus tags: client-side validation, then a save that the focus history shows.
  const tagInput = page.getByLabel('Add a focus tag');
  await tagInput.fill('Not A Tag!');
  await tagInput.press('Enter');
  await expect(tagInput).toHaveAccessibleDescription(/lowercase letters and digits/);
  for (const tag of ['q3-launch', 'pricing', 'hiring']) {
    await tagInput.fill(tag);
    await tagInput.press('Enter');
  }
  await expect(tagInput).toBeDisabled();
  await page.getByRole('button', { name: 'Save focus' }).click();
  await expect.poll(async () => (await desk.api('GET', '/api/v1/workspace/focus-tags')).body).toEqual({ tags: ['q3-launch', 'pricing', 'hiring'] });
  await expect(page.getByRole('list', { name: 'Focus shifts' }).getByText('q3-launch')).toBeVisible();

  // Stale-task archive: 3 days is below the 7-day minimum; the error sits next to the field.
  await page.getByLabel('Archive stale tasks').check();
  const taskDays = page.getByLabel('Task threshold (days)');
  await taskDays.fill('3');
  await taskDays.press('Enter');
  await expect(taskDays).toHaveAttribute('aria-invalid', 'true');
  expect((await desk.api('GET', '/api/v1/workspace/auto-archive-config')).body).toEqual({ staleTaskAutoArchiveDays: null });
  await taskDays.fill('14');
  await taskDays.press('Enter');
  await expect.poll(async () => (await desk.api('GET', '/api/v1/workspace/auto-archive-config')).body).toEqual({ staleTaskAutoArchiveDays: 14 });

  // Cost cap in dollars becomes integer cents; unticking removes the cap.
  const cap = page.getByLabel('Daily cap (USD)');
  await expect(cap).toHaveValue('0.50');
  await cap.fill('12.5');
  await cap.press('Enter');
  await expect.poll(async () => (await desk.api('GET', '/api/v1/workspace')).body.dailyCostCapUsdCents).toBe(1250);
  await page.getByLabel('Cap daily AI spend').uncheck();
  await page.locator('form', { has: cap }).getByRole('button', { name: 'Save' }).click();
  await expect.poll(async () => (await desk.api('GET', '/api/v1/workspace')).body.dailyCostCapUsdCents).toBeNull();

  // Spike action select saves on change.
  await page.getByLabel('Task spikes').selectOption({ label: 'Alert and pause' });
  await expect.poll(async () => (await desk.api('GET', '/api/v1/workspace/cost-spike-config')).body).toEqual({ taskCostSpikeAction: 'pause' });

  await lookAt(page, 'settings-changed', { fullPage: true });

  // Every change is in the activity log, searchable from the Activity page.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Activity' }).click();
  const log = page.getByRole('table', { name: 'Activity log' });
  await expect(log.getByText('Focus set to q3-launch, pricing, hiring')).toBeVisible();
  await page.getByLabel('Search', { exact: true }).fill('cost cap');
  await expect(log.getByText('Daily cost cap removed')).toBeVisible();
  await expect(log.getByText('Focus set to q3-launch, pricing, hiring')).toHaveCount(0);
  await lookAt(page, 'activity', { fullPage: true });
});

test('without a token the UI asks for the printed link; a rejected token returns there', async ({ page, consoleGuard }) => {
  consoleGuard.allow(/status of 401 .* @ .*\/api\/v1\//, 'a rejected token on purpose; the sign-in screen says so');
  await page.goto(`${desk.baseUrl}/settings`);
  await expect(page.getByRole('heading', { name: 'Open the link printed by npm start' })).toBeVisible();
  await lookAt(page, 'signin', { fullPage: true });

  await page.goto(`${desk.baseUrl}/settings#token=not-the-token`);
  await expect(page.getByRole('heading', { name: 'Your access link is no longer valid' })).toBeVisible();

  // Pasting the printed link signs in.
  await page.getByLabel('Or paste the link here').fill(desk.openUrl);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
});

test('settings changed in the UI survive a restart; the environment does not overwrite them', async ({ page, consoleGuard }) => {
  consoleGuard.allow(/net::ERR_CONNECTION_(REFUSED|RESET) @ .*\/api\/v1\//, 'the test stops and restarts the desk on purpose while the page is open');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-e2e-restart-'));
  try {
    const first = await startCliDesk({ env: { DESK_DATA_DIR: dataDir, DESK_TIMEZONE: 'UTC' } });
    try {
      await openSettings(page, first);
      const email = page.getByLabel('Digest email');
      await email.fill('ops@example.com');
      await email.press('Enter');
      await expect.poll(async () => (await first.api('GET', '/api/v1/workspace')).body.digestEmail).toBe('ops@example.com');
      const timezone = page.getByLabel('Timezone');
      await timezone.fill('Europe/Berlin');
      await timezone.press('Enter');
      await expect.poll(async () => (await first.api('GET', '/api/v1/workspace')).body.timezone).toBe('Europe/Berlin');
      await page.getByLabel('Plan', { exact: true }).selectOption('team');
      await expect.poll(async () => (await first.api('GET', '/api/v1/workspace')).body.plan).toBe('team');
    } finally {
      await first.stop();
    }

    // Same data folder, different seed variables: the workspace keeps what the operator set.
    const second = await startCliDesk({ env: { DESK_DATA_DIR: dataDir, DESK_TIMEZONE: 'Asia/Tokyo', DESK_PLAN: 'free' } });
    try {
      await openSettings(page, second);
      await expect(page.getByLabel('Digest email')).toHaveValue('ops@example.com');
      await expect(page.getByLabel('Timezone')).toHaveValue('Europe/Berlin');
      await expect(page.getByLabel('Plan', { exact: true })).toHaveValue('team');
      expect((await second.api('GET', '/api/v1/workspace')).body).toMatchObject({ digestEmail: 'ops@example.com', timezone: 'Europe/Berlin', plan: 'team' });
    } finally {
      await second.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('Back up now writes a backup and shows it as the newest row of Settings > Backups', async ({ page }) => {
  const before = (await desk.api<{ backups: { name: string }[] }>('GET', '/api/v1/backups')).body.backups.map((b) => b.name);
  await openSettings(page);
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Backups' }).click();
  await expect(page).toHaveURL(/\/settings\/backups$/);
  const section = page.locator('section#backups');
  await section.getByRole('button', { name: 'Back up now' }).click();
  await expect(section.getByRole('status')).toHaveText(/^Saved desk-.*\.sqlite$/);
  const after = (await desk.api<{ backups: { name: string }[] }>('GET', '/api/v1/backups')).body.backups.map((b) => b.name);
  const made = after.find((name) => !before.includes(name));
  expect(made).toBeDefined();
  const rows = section.getByRole('table', { name: 'Backups' }).locator('tbody tr');
  await expect(rows).toHaveCount(after.length);
  await expect(rows.first().locator('code')).toHaveText(made!);
  await lookAt(page, 'settings-backups', { fullPage: true });
});
