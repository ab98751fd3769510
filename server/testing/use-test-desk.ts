import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { userTables } from './db-fingerprint';
import { startTestDesk, type TestDesk, type TestDeskOptions } from './desk';

type Rows = Map<string, Record<string, unknown>[]>;

async function readRows<DB>(db: Kysely<DB>): Promise<Rows> {
  const raw = db.withoutPlugins();
  const rows: Rows = new Map();
  for (const table of await userTables(db)) {
    rows.set(table, (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(raw)).rows);
  }
  return rows;
}

/** Puts every user table back to `rows` in one transaction (foreign keys checked at commit). */
async function restoreRows<DB>(db: Kysely<DB>, rows: Rows): Promise<void> {
  const tables = await userTables(db);
  await db.withoutPlugins().transaction().execute(async (trx) => {
    await sql`PRAGMA defer_foreign_keys = ON`.execute(trx);
    for (const table of tables) await sql`DELETE FROM ${sql.table(table)}`.execute(trx);
    for (const [table, tableRows] of rows) {
      for (const row of tableRows) {
        const columns = Object.keys(row);
        await sql`INSERT INTO ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) VALUES (${sql.join(columns.map((c) => row[c]))})`.execute(trx);
      }
    }
  });
}

export interface SharedTestDesk {
  /** The file's desk; valid inside tests and hooks. */
  readonly desk: TestDesk;
  /** Back to the state right after start: every table's rows and the clock. Runs before each test. */
  reset(): Promise<void>;
}

/**
 * One desk for a whole test file instead of one per test: started in beforeAll, stopped (and its
 * folder removed) in afterAll, and reset before each test to its fresh state: every table holds
 * exactly its rows from right after start, and the clock is back at its start time.
 *
 * In-memory state is not reset: use it only in files whose tests do not configure the relay, rely
 * on the webhook rate limit window, or stop and restart the desk; those keep startTestDesk() per test.
 */
export function useTestDesk(options: TestDeskOptions = {}): SharedTestDesk {
  let desk: TestDesk | undefined;
  let fresh: Rows;
  let startedAt: Date;
  let dirty = false;
  const shared: SharedTestDesk = {
    get desk() {
      if (!desk) throw new Error('useTestDesk(): the desk starts in beforeAll; read it inside a test or a hook');
      return desk;
    },
    async reset() {
      const d = shared.desk;
      d.clock.set(startedAt);
      await restoreRows(d.services.db, fresh);
    },
  };
  beforeAll(async () => {
    desk = await startTestDesk(options);
    startedAt = desk.clock.now();
    fresh = await readRows(desk.services.db);
  });
  beforeEach(async () => {
    // The first test gets the desk as started; every later one a reset copy of that state.
    if (dirty) await shared.reset();
    dirty = true;
  });
  afterAll(async () => {
    await desk?.stop();
    desk = undefined;
  });
  return shared;
}
