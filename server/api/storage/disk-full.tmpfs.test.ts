import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOP_CYCLE_JOB } from '../../jobs/loop-jobs';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { aSignal, createSignal } from '../../testing/fixtures/signals';

/**
 * The true ENOSPC path: the desk's data folder on a 24 MiB tmpfs this test mounts, filled to the
 * last byte by a file beside the database. Mounting needs root (CI runs as root, like the build
 * machines); elsewhere the test is skipped and says why.
 */
const SIZE_MIB = 24;
const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-tmpfs-'));
let mountProblem: string | null = null;
try {
  if (process.platform !== 'linux') throw new Error('tmpfs is Linux');
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${SIZE_MIB}m,mode=0700`, 'tmpfs', mountPoint], { stdio: 'pipe' });
} catch (err) {
  mountProblem = `cannot mount a tmpfs here (needs root on Linux): ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`;
  fs.rmSync(mountPoint, { recursive: true, force: true });
}

/** Writes `file` until the disk refuses: big chunks, then single pages, so not a byte is left. */
function fillDisk(file: string): number {
  const fd = fs.openSync(file, 'w');
  let written = 0;
  try {
    for (const chunk of [Buffer.alloc(1024 * 1024, 1), Buffer.alloc(4096, 1), Buffer.alloc(512, 1)]) {
      for (;;) {
        try {
          written += fs.writeSync(fd, chunk);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw err;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return written;
}

describe.skipIf(mountProblem !== null)(`a full disk for real (tmpfs of ${SIZE_MIB} MiB)${mountProblem ? `: skipped, ${mountProblem}` : ''}`, () => {
  let desk: TestDesk;
  const dataDir = path.join(mountPoint, 'data');
  beforeAll(async () => {
    desk = await startTestDesk({ dataDir, minFreeDiskBytes: 4 * 1024 * 1024 });
  });
  afterAll(async () => {
    await desk?.stop().catch(() => {});
    if (mountProblem === null) {
      execFileSync('umount', [mountPoint]);
      fs.rmSync(mountPoint, { recursive: true, force: true });
    }
  });

  it('answers 507 when SQLite meets ENOSPC, keeps every acknowledged write, holds the loop, resumes when space returns and reopens intact', async () => {
    const acknowledged: string[] = [];
    for (let i = 0; i < 5; i++) acknowledged.push((await createSignal(desk, { title: `before the disk filled ${i}` })).id);
    const filler = path.join(mountPoint, 'filler.bin');
    fillDisk(filler);
    expect(fs.statfsSync(mountPoint).bavail).toBe(0);

    let refused: { status: number; body: Record<string, unknown> } | null = null;
    for (let i = 0; i < 400 && refused === null; i++) {
      const res = await desk.api('POST', '/api/v1/signals', aSignal({ title: `while full ${i}`, detail: 'x'.repeat(4000) }));
      if (res.status === 201) acknowledged.push(res.body.id as string);
      else refused = res;
    }
    expect(refused?.status).toBe(507);
    expect(refused?.body).toEqual({ error: 'disk_full', message: expect.stringMatching(/is full.*needs at least 4 MB free/) });
    const storage = (await desk.api('GET', '/api/v1/storage')).body;
    expect(storage).toMatchObject({ diskFull: true, neededBytes: 4 * 1024 * 1024 });
    expect(storage.freeBytes).toBeLessThan(4 * 1024 * 1024);
    expect(await desk.services.scheduler.tick()).toEqual([]);
    const listed = await desk.api('GET', `/api/v1/signals?limit=${acknowledged.length + 10}`);
    expect((listed.body.signals as { id: string }[]).map((s) => s.id).sort()).toEqual([...acknowledged].sort());

    fs.rmSync(filler);
    expect((await desk.api('GET', '/api/v1/storage')).body).toMatchObject({ diskFull: false });
    expect(await desk.services.scheduler.tick()).toContain(LOOP_CYCLE_JOB);
    acknowledged.push((await createSignal(desk, { title: 'after space returned' })).id);

    // A restart finds every acknowledged write, in a database that passes its check.
    await desk.stop({ keepDataDir: true });
    desk = await startTestDesk({ dataDir, minFreeDiskBytes: 4 * 1024 * 1024 });
    expect(desk.mode).toBe('normal');
    const reopened = await desk.api('GET', `/api/v1/signals?limit=${acknowledged.length + 10}`);
    expect((reopened.body.signals as { id: string }[]).map((s) => s.id).sort()).toEqual([...acknowledged].sort());
  });
});
