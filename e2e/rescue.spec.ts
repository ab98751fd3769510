import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { expectAccessible } from './axe';
import { startCliDesk, type RunningCliDesk } from './desk';
import { overwritePages } from '../server/testing/damage';

/**
 * Issue 31, part 3: a desk whose database is damaged starts in rescue mode, and its page restores the
 * newest good backup with one click; the desk comes back with the backup's data on the same port.
 */
test('a damaged database opens in rescue mode and is restored from the page', async ({ page }) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-e2e-rescue-'));
  let desk: RunningCliDesk | undefined;
  try {
    // A workspace with a signal, backed up, then another signal the backup does not hold.
    desk = await startCliDesk({ dataDir });
    const kept = await desk.api<{ id: string }>('POST', '/api/v1/signals', { kind: 'news', priority: 'high', title: 'Kept by the backup', detail: 'in the backup' });
    expect(kept.status).toBe(201);
    // The daily backup job runs at start too: a backup on demand is refused (409) while it writes.
    await expect.poll(async () => (await desk!.api('POST', '/api/v1/backups')).status, { timeout: 20_000 }).toBe(201);
    expect((await desk.api('POST', '/api/v1/signals', { kind: 'news', priority: 'high', title: 'Written after the backup', detail: 'lost with the damage' })).status).toBe(201);
    await desk.stop();
    desk = undefined;
    // Sectors lost under the database (pages of its tables; the header stays readable).
    overwritePages(path.join(dataDir, 'desk.sqlite'), [3, 4, 5, 6, 7, 8]);

    desk = await startCliDesk({ dataDir });
    expect(desk.output()).toMatch(/RESCUE MODE/);
    await page.goto(desk.openUrl);
    await expect(page.getByRole('heading', { level: 1, name: "Desk's database needs a restore" })).toBeFocused();
    await expect(page.getByText(/integrity check found damage/)).toBeVisible();
    await expect(page.getByRole('cell', { name: 'passes' }).first()).toBeVisible();
    await expectAccessible(page, 'main');

    await page.getByRole('button', { name: /^Restore the backup of/ }).click();
    // The desk leaves rescue mode on the same port and the page signs in to it.
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible({ timeout: 30_000 });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Signals' }).click();
    await expect(page.getByText('Kept by the backup').first()).toBeVisible();
    await expect(page.getByText('Written after the backup')).toHaveCount(0);
    // The damaged file is kept aside, never deleted.
    expect(fs.readdirSync(dataDir).filter((f) => /^desk\.sqlite\.damaged-\d{8}T\d{6}Z$/.test(f))).toHaveLength(1);
  } finally {
    await desk?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
