import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkFile, SYNC_CHECK_MAX_BYTES } from '../db/integrity';
import { startTestDesk, type TestDesk } from './testing/desk';
import { overwritePages, pageCountOf, replaceWithText, truncateFile } from './testing/damage';
import { createSignal } from './testing/fixtures/signals';
import { RESCUE_MODE_HEADER, type RescueState } from './rescue-desk';
import { runRestoreCommand } from './restore-command';
import { configFromEnv } from './config';

const desks: TestDesk[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const d of desks.splice(0)) await d.stop();
  for (const f of folders.splice(0)) fs.rmSync(f, { recursive: true, force: true });
});

const start = async (options: Parameters<typeof startTestDesk>[0] = {}) => {
  const desk = await startTestDesk(options);
  desks.push(desk);
  return desk;
};

/**
 * A stopped desk's data folder holding two signals and one backup taken between them (the backup
 * has "kept" only), so a restore shows which data came back.
 */
async function folderWithBackup(): Promise<{ dataDir: string; backup: string }> {
  const desk = await startTestDesk();
  await createSignal(desk, { title: 'kept' });
  const backup = (await desk.api('POST', '/api/v1/backups')).body.name as string;
  await createSignal(desk, { title: 'written after the backup' });
  await desk.stop({ keepDataDir: true });
  folders.push(desk.dataDir);
  return { dataDir: desk.dataDir, backup };
}

/** The real wait of a desk restarting in this process after a restore (bounded). */
async function untilNormal(desk: TestDesk): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (desk.mode === 'normal') return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the desk did not leave rescue mode');
}

const DAMAGE = {
  'pages overwritten': (file: string) => overwritePages(file, [3, 4, 5, 6, 7, 8, Math.floor(pageCountOf(file) / 2)]),
  'cut to half its length': (file: string) => truncateFile(file, 0.5),
  'not a database at all': (file: string) => replaceWithText(file),
} as const;

describe('integrity on start and rescue mode', () => {
  for (const [kind, damage] of Object.entries(DAMAGE)) {
    it(`a database ${kind} is not opened for writes: the desk answers 503 database_damaged and offers the newest good backup`, async () => {
      const { dataDir, backup } = await folderWithBackup();
      const file = path.join(dataDir, 'desk.sqlite');
      damage(file);
      const damagedBytes = fs.readFileSync(file);
      const desk = await start({ dataDir });
      expect(desk.mode).toBe('rescue');
      expect(() => desk.services).toThrow(/rescue mode/);

      const normal = await desk.api('GET', '/api/v1/signals');
      expect(normal.status).toBe(503);
      expect(normal.body).toEqual({ error: 'database_damaged', message: expect.stringMatching(/rescue mode.*npm run restore/) });
      expect(normal.headers.get(RESCUE_MODE_HEADER)).toBe('rescue');
      expect((await desk.api('POST', '/api/v1/signals', { title: 'x' })).status).toBe(503);
      expect((await desk.api('GET', '/api/v1/rescue', undefined, 'wrong-token-wrong-token')).status).toBe(401);

      const state = (await desk.api('GET', '/api/v1/rescue')).body as RescueState;
      expect(state).toMatchObject({ mode: 'rescue', problem: kind === 'not a database at all' ? 'not_a_database' : 'damaged', file, newestGood: backup });
      expect(state.details.length).toBeGreaterThan(0);
      expect(state.backups).toEqual([expect.objectContaining({ name: backup, ok: true })]);
      // Nothing was written to the damaged file while the desk looked at it.
      expect(fs.readFileSync(file).equals(damagedBytes)).toBe(true);
    });
  }

  it('restores the newest good backup in one call: the damaged file is kept aside, the full desk starts on the same port', async () => {
    const { dataDir, backup } = await folderWithBackup();
    const file = path.join(dataDir, 'desk.sqlite');
    overwritePages(file, [3, 4, 5, 6]);
    const damagedBytes = fs.readFileSync(file);
    const desk = await start({ dataDir });
    const url = desk.url;

    const res = await desk.api('POST', '/api/v1/rescue/restore', {});
    expect(res.status).toBe(200);
    // The -wal and -shm files SQLite made when the desk looked go aside with it, under names that keep them paired.
    expect(res.body).toMatchObject({ restored: backup, keptAside: expect.arrayContaining([expect.stringMatching(/desk\.sqlite\.damaged-20260310T120000Z$/)]) });
    await untilNormal(desk);
    expect(desk.url).toBe(url);
    const aside = (res.body.keptAside as string[]).find((f) => f.endsWith('Z'))!;
    expect(fs.readFileSync(aside).equals(damagedBytes)).toBe(true);
    expect(checkFile(file, 'full')).toBeNull();
    const titles = ((await desk.api('GET', '/api/v1/signals')).body.signals as { title: string }[]).map((s) => s.title);
    expect(titles).toEqual(['kept']);
    await createSignal(desk, { title: 'after the restore' });
  });

  it('offers only backups that pass their check, and refuses to restore a damaged one or a name outside the backups folder', async () => {
    const { dataDir, backup } = await folderWithBackup();
    const damagedBackup = 'desk-20260311T120000000Z.sqlite';
    fs.copyFileSync(path.join(dataDir, 'backups', backup), path.join(dataDir, 'backups', damagedBackup));
    overwritePages(path.join(dataDir, 'backups', damagedBackup), [3, 4, 5]);
    replaceWithText(path.join(dataDir, 'desk.sqlite'));
    const desk = await start({ dataDir });

    const state = (await desk.api('GET', '/api/v1/rescue')).body as RescueState;
    expect(state.backups.map((b) => [b.name, b.ok])).toEqual([
      [damagedBackup, false],
      [backup, true],
    ]);
    expect(state.newestGood).toBe(backup);
    const refused = await desk.api('POST', '/api/v1/rescue/restore', { backup: damagedBackup });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ error: 'validation_failed', details: [{ field: 'backup' }] });
    const outside = await desk.api('POST', '/api/v1/rescue/restore', { backup: '../desk.sqlite' });
    expect(outside.status).toBe(422);
    expect(desk.mode).toBe('rescue');
    expect(fs.readFileSync(path.join(dataDir, 'desk.sqlite'), 'utf8')).toMatch(/^These are my notes/);
  });

  it('a file too large to check before starting is checked on a worker thread while the desk starts; when that check fails the desk switches to rescue mode on its port', async () => {
    const desk = await startTestDesk();
    // Past SYNC_CHECK_MAX_BYTES: 1300 signals of 4 kB through the webhook, 50 a delivery.
    for (let b = 0; b < 26; b++) {
      const signals = Array.from({ length: 50 }, (_, i) => ({ title: `bulk ${b}-${i}`, detail: 'x'.repeat(4000) }));
      const res = await fetch(`${desk.url}/api/webhooks/signals/${desk.token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ signals }) });
      expect(res.status).toBeLessThan(300);
    }
    await desk.stop({ keepDataDir: true });
    folders.push(desk.dataDir);
    const file = path.join(desk.dataDir, 'desk.sqlite');
    expect(fs.statSync(file).size).toBeGreaterThan(SYNC_CHECK_MAX_BYTES);
    // Pages deep in the signals table: nothing the start reads, so only quick_check finds them.
    const middle = Math.floor(pageCountOf(file) / 2);
    overwritePages(file, [middle, middle + 1, middle + 2]);

    const again = await start({ dataDir: desk.dataDir });
    const url = again.url;
    for (let i = 0; i < 400 && again.mode !== 'rescue'; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(again.mode).toBe('rescue');
    expect(again.url).toBe(url);
    expect((await again.api('GET', '/api/v1/rescue')).body).toMatchObject({ mode: 'rescue', problem: 'damaged' });
    expect((await again.api('GET', '/api/v1/workspace')).status).toBe(503);
  });

  it('SQLite reporting damage while the desk runs answers that request 503, never 500, and the desk switches to rescue mode on its port', async () => {
    const desk = await start();
    const url = desk.url;
    // What better-sqlite3 throws on reading a bad page (a page the background check had not reached, or damage found later).
    const corrupt = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
    vi.spyOn(desk.services.signals, 'list').mockRejectedValueOnce(corrupt);
    const res = await desk.api('GET', '/api/v1/signals');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: 'database_damaged', message: expect.stringContaining('rescue mode') });
    for (let i = 0; i < 400 && desk.mode !== 'rescue'; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(desk.mode).toBe('rescue');
    expect(desk.url).toBe(url);
    expect((await desk.api('GET', '/api/v1/rescue')).body).toMatchObject({ mode: 'rescue', problem: 'damaged', details: ['database disk image is malformed'] });
  });

  it('an error that says nothing about the file is still a 500 in the one shape, and the desk stays up', async () => {
    const desk = await start();
    vi.spyOn(desk.services.signals, 'list').mockRejectedValueOnce(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }));
    expect((await desk.api('GET', '/api/v1/signals')).body).toMatchObject({ error: 'internal_error' });
    expect(desk.mode).toBe('normal');
    expect((await desk.api('GET', '/api/v1/signals')).status).toBe(200);
  });

  it('a healthy database starts normally (quick_check passes)', async () => {
    const { dataDir } = await folderWithBackup();
    const desk = await start({ dataDir });
    expect(desk.mode).toBe('normal');
    expect((await desk.api('GET', '/api/v1/signals')).status).toBe(200);
  });
});

describe('npm run restore -- <backup>', () => {
  const run = (args: string[], dataDir: string) => {
    const lines: string[] = [];
    const code = runRestoreCommand(args, configFromEnv({ DESK_DATA_DIR: dataDir }), (l) => lines.push(l), (l) => lines.push(l));
    return { code, text: lines.join('\n') };
  };

  it('lists the backups, each checked, and restores one by name, keeping the replaced file aside', async () => {
    const { dataDir, backup } = await folderWithBackup();
    truncateFile(path.join(dataDir, 'desk.sqlite'), 0.5);
    expect(run([], dataDir)).toMatchObject({ code: 0, text: expect.stringContaining(`${backup}`) });
    const restored = run([backup], dataDir);
    expect(restored.code).toBe(0);
    expect(restored.text).toMatch(/kept as .*desk\.sqlite\.damaged-/);
    expect(fs.readdirSync(dataDir).filter((f) => f.startsWith('desk.sqlite.damaged-'))).toHaveLength(1);
    const desk = await start({ dataDir });
    expect(desk.mode).toBe('normal');
    expect(((await desk.api('GET', '/api/v1/signals')).body.signals as { title: string }[]).map((s) => s.title)).toEqual(['kept']);
  });

  it('refuses while a desk runs on the folder, and refuses a backup that fails its check', async () => {
    const { dataDir, backup } = await folderWithBackup();
    const desk = await start({ dataDir });
    const busy = run([backup], dataDir);
    expect(busy.code).toBe(1);
    expect(busy.text).toMatch(/Cannot restore while Desk runs/);
    await desk.stop();
    desks.splice(0);
    const broken = path.join(dataDir, 'broken.sqlite');
    fs.copyFileSync(path.join(dataDir, 'backups', backup), broken);
    overwritePages(broken, [3, 4, 5]);
    const before = fs.readFileSync(path.join(dataDir, 'desk.sqlite'));
    const refused = run([broken], dataDir);
    expect(refused.code).toBe(1);
    expect(refused.text).toMatch(/failed SQLite's quick_check/);
    expect(fs.readFileSync(path.join(dataDir, 'desk.sqlite')).equals(before)).toBe(true);
  });
});
