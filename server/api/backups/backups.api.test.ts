import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../core/clock';
import { BACKUPS_KEPT, UPGRADE_BACKUPS_KEPT, upgradeBackupName } from '../../domain/backups/backup-service';
import { DAILY_BACKUP_JOB } from '../../jobs/backup-jobs';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { createSignal } from '../../testing/fixtures/signals';

const desks: TestDesk[] = [];
afterEach(async () => {
  for (const d of desks.splice(0)) await d.stop();
});
const start = async (options: Parameters<typeof startTestDesk>[0] = {}) => {
  const desk = await startTestDesk(options);
  desks.push(desk);
  return desk;
};

describe('backups', () => {
  it('POST /backups writes a private copy in the data folder, lists it and logs it', async () => {
    const desk = await start();
    const res = await desk.api('POST', '/api/v1/backups');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'desk-20260310T120000000Z.sqlite', createdAt: '2026-03-10T12:00:00.000Z' });
    const file = path.join(desk.dataDir, 'backups', res.body.name);
    expect(fs.statSync(file).size).toBe(res.body.sizeBytes);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.join(desk.dataDir, 'backups'))).toEqual([res.body.name]); // no partial file left
    const list = await desk.api('GET', '/api/v1/backups');
    expect(list.body).toEqual({ backups: [res.body], folder: path.join(desk.dataDir, 'backups'), kept: BACKUPS_KEPT });
    const log = (await desk.api('GET', '/api/v1/activity?kind=backup.created')).body.activities;
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ actorUserId: expect.stringMatching(/^usr_/), entityId: res.body.name });
  });

  it('runs daily by the scheduler as the system, and keeps only the newest backups', async () => {
    const desk = await start();
    for (let day = 0; day < BACKUPS_KEPT + 2; day++) {
      expect(await desk.services.scheduler.tick()).toContain(DAILY_BACKUP_JOB);
      expect(await desk.services.scheduler.tick()).not.toContain(DAILY_BACKUP_JOB); // once a day
      desk.clock.advance(DAY_MS);
    }
    const { backups } = (await desk.api('GET', '/api/v1/backups')).body;
    expect(backups).toHaveLength(BACKUPS_KEPT);
    expect(backups[0].createdAt).toBe('2026-03-18T12:00:00.000Z'); // newest first
    expect(backups[BACKUPS_KEPT - 1].createdAt).toBe('2026-03-12T12:00:00.000Z');
    const log = (await desk.api('GET', '/api/v1/activity?kind=backup.created&limit=1')).body.activities;
    expect(log[0]).toMatchObject({ actorLabel: 'system', actorUserId: null });
    expect(log[0].detail).toMatch(/older removed/);
  });

  it('lists the copies taken before schema upgrades, and keeps the newest of them apart from the daily ones', async () => {
    const desk = await start();
    const folder = path.join(desk.dataDir, 'backups');
    fs.mkdirSync(folder, { recursive: true });
    const upgrades = [1, 2, 3, 4].map((n) => upgradeBackupName(new Date(Date.UTC(2026, 1, n)), 10 + n, 19));
    expect(upgrades[3]).toBe('desk-20260204T000000000Z-upgrade-0014-to-0019.sqlite');
    for (const name of upgrades) fs.writeFileSync(path.join(folder, name), 'copy');
    for (let day = 0; day < BACKUPS_KEPT + 1; day++) {
      await desk.services.scheduler.runNow(DAILY_BACKUP_JOB);
      desk.clock.advance(DAY_MS);
    }
    const names = (await desk.api('GET', '/api/v1/backups')).body.backups.map((b: { name: string }) => b.name);
    expect(names.filter((n: string) => n.includes('-upgrade-'))).toEqual(upgrades.slice(-UPGRADE_BACKUPS_KEPT).reverse());
    expect(names.filter((n: string) => !n.includes('-upgrade-'))).toHaveLength(BACKUPS_KEPT);
  });

  it('a desk started on a restored backup has the data of the moment it was taken', async () => {
    const desk = await start();
    const kept = await createSignal(desk, { title: 'before the backup' });
    const backup = (await desk.api('POST', '/api/v1/backups')).body;
    await createSignal(desk, { title: 'after the backup' });

    // README's restore: with Desk stopped, copy the backup over desk.sqlite in a data folder.
    const restoredDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-restored-'));
    fs.copyFileSync(path.join(desk.dataDir, 'backups', backup.name), path.join(restoredDir, 'desk.sqlite'));
    const restored = await start({ dataDir: restoredDir, ownsDataDir: true });
    expect(restored.token).toBe(desk.token);
    const titles = (await restored.api('GET', '/api/v1/signals')).body.signals.map((s: { title: string }) => s.title);
    expect(titles).toEqual([kept.title]);
  });
});
