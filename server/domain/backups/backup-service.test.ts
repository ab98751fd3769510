import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../core/clock';
import { useTestDatabase } from '../../testing/database';
import { overwritePages } from '../../testing/damage';
import { SYSTEM_ACTOR } from '../activity/activity';
import { BACKUPS_KEPT, BackupService, FAILED_CHECK_SUFFIX } from './backup-service';

describe('backups are checked before they count', () => {
  const t = useTestDatabase({ workspace: { plan: 'free', timezone: 'UTC' } });

  it('the daily backup runs the full integrity_check on its copy; a copy that fails is set aside, offered nowhere, and no older backup is pruned', async () => {
    let damageNext = false;
    const copy = async (file: string) => {
      await t.database.backup(file);
      if (damageNext) overwritePages(file, [3, 4, 5]);
    };
    const backups = new BackupService(t.db, t.clock, t.dir, copy);
    for (let i = 0; i < BACKUPS_KEPT; i++) {
      await backups.createScheduled();
      t.clock.advance(DAY_MS);
    }
    const kept = backups.list().backups.map((b) => b.name);
    expect(kept).toHaveLength(BACKUPS_KEPT);

    damageNext = true;
    await expect(backups.create(SYSTEM_ACTOR, 'full')).rejects.toThrow(/failed SQLite's integrity_check .*older backups are kept/);
    expect(backups.list().backups.map((b) => b.name)).toEqual(kept);
    const folder = path.join(t.dir, 'backups');
    const setAside = fs.readdirSync(folder).filter((f) => f.endsWith(FAILED_CHECK_SUFFIX));
    expect(setAside).toEqual([`desk-20260317T120000000Z.sqlite${FAILED_CHECK_SUFFIX}`]);
    // Checking left no -wal/-shm files beside the backups.
    expect(fs.readdirSync(folder).filter((f) => /-(wal|shm)$/.test(f))).toEqual([]);
  });
});
