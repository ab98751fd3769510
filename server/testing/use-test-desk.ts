import { afterAll, beforeAll, beforeEach } from 'vitest';
import { restoreRows, snapshotRows, type RowSnapshot } from './fixtures/desk-snapshot';
import { startTestDesk, type TestDesk, type TestDeskOptions } from './desk';

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
  let fresh: RowSnapshot;
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
    fresh = await snapshotRows(desk.services.db);
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
