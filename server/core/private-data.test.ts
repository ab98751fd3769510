import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestDesk, type TestDesk } from '../testing/desk';
import { makeDataDirPrivate } from './private-data';

/** The data folder holds the token in plain text: only its owner may read it (POSIX modes; not on Windows). */

const running: TestDesk[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const d of running.splice(0)) await d.stop();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const modeOf = (p: string) => fs.statSync(p).mode & 0o777;

/** A data folder path under a parent that is not private itself (as ~/.local/share is not). */
function freshDataDir(): string {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-modes-'));
  dirs.push(parent);
  return path.join(parent, 'desk');
}

describe.skipIf(process.platform === 'win32')('a private data folder', () => {
  it('a new data folder is 0700, and the database, its WAL, the lock and the log are 0600', async () => {
    const previous = process.umask(0o022);
    try {
      const dataDir = freshDataDir();
      const desk = await startTestDesk({ dataDir });
      running.push(desk);
      // A write, so the WAL and shared-memory files exist.
      expect((await desk.api('PATCH', '/api/v1/workspace/loop', { loopState: 'paused' })).status).toBe(200);
      expect(modeOf(dataDir).toString(8)).toBe('700');
      for (const file of ['desk.sqlite', 'desk.sqlite-wal', 'desk.sqlite-shm', 'desk.lock', 'logs/desk.log']) {
        expect(fs.existsSync(path.join(dataDir, file)), file).toBe(true);
        expect(modeOf(path.join(dataDir, file)).toString(8), file).toBe('600');
      }
    } finally {
      process.umask(previous);
    }
  });

  it('a data folder left readable by an older desk is made private on start', async () => {
    const dataDir = freshDataDir();
    const first = await startTestDesk({ dataDir });
    await first.stop();
    fs.mkdirSync(path.join(dataDir, 'backups'));
    fs.writeFileSync(path.join(dataDir, 'backups', 'desk-2026-03-01.sqlite'), 'x');
    const readable: string[] = [];
    const open = (dir: string) => {
      fs.chmodSync(dir, 0o755);
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) open(full);
        else {
          fs.chmodSync(full, 0o644);
          readable.push(full);
        }
      }
    };
    open(dataDir);
    expect(readable.length).toBeGreaterThanOrEqual(3);
    const desk = await startTestDesk({ dataDir });
    running.push(desk);
    for (const dir of [dataDir, path.join(dataDir, 'logs'), path.join(dataDir, 'backups')]) expect(modeOf(dir).toString(8), dir).toBe('700');
    for (const file of readable) expect(modeOf(file).toString(8), file).toBe('600');
  });

  it('leaves what symbolic links point to alone', () => {
    const dataDir = freshDataDir();
    const outside = path.join(path.dirname(dataDir), 'shared.txt');
    fs.writeFileSync(outside, 'x');
    fs.chmodSync(outside, 0o644);
    fs.mkdirSync(dataDir);
    fs.symlinkSync(outside, path.join(dataDir, 'link'));
    makeDataDirPrivate(dataDir);
    expect(modeOf(outside).toString(8)).toBe('644');
  });
});
