import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { openDatabase, type Db, type OpenedDatabase } from '../../db/connection';
import { ManualClock } from '../core/clock';
import type { WorkspaceSeed } from '../domain/workspace/workspace-service';
import { WorkspaceService } from '../domain/workspace/workspace-service';

export interface TestDatabase {
  /** The migrated database of the current test. */
  readonly db: Db;
  readonly database: OpenedDatabase;
  /** The current test's clock, at 2026-03-10T12:00:00Z when the test starts. */
  readonly clock: ManualClock;
  /** The temp folder holding the database file. */
  readonly dir: string;
  /** Closes and opens the same file again (a restart). */
  reopen(): Promise<void>;
}

/**
 * A fresh migrated database in its own temp folder for each test (beforeEach), closed and removed
 * after it: for unit tests of domain code below the HTTP layer. With `workspace`, the workspace is
 * created first, as startDesk does.
 */
export function useTestDatabase(options: { workspace?: WorkspaceSeed } = {}): TestDatabase {
  let state: { database: OpenedDatabase; clock: ManualClock; dir: string } | null = null;
  const current = () => {
    if (!state) throw new Error('useTestDatabase: only inside a test');
    return state;
  };
  beforeEach(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-db-'));
    const clock = new ManualClock('2026-03-10T12:00:00.000Z');
    const database = await openDatabase(path.join(dir, 'desk.sqlite'), { synchronous: 'OFF' });
    state = { database, clock, dir };
    if (options.workspace) await new WorkspaceService(database.db, clock).ensureCreated(options.workspace);
  });
  afterEach(async () => {
    if (!state) return;
    await state.database.close().catch(() => {});
    fs.rmSync(state.dir, { recursive: true, force: true });
    state = null;
  });
  return {
    get db() {
      return current().database.db;
    },
    get database() {
      return current().database;
    },
    get clock() {
      return current().clock;
    },
    get dir() {
      return current().dir;
    },
    async reopen() {
      const s = current();
      await s.database.close();
      s.database = await openDatabase(path.join(s.dir, 'desk.sqlite'), { synchronous: 'OFF' });
    },
  };
}
