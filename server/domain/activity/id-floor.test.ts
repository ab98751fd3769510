import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openDatabase } from '../../../db/connection';
import { inTransaction } from '../../../db/transactions';
import { ManualClock } from '../../core/clock';
import { recordActivity, SYSTEM_ACTOR } from './activity';

/**
 * Ids after a restart on a clock that went back while the desk was stopped (issue 31, part 5): a
 * fresh process has no last id to count on from, so raiseIdFloorToStored (called by startDesk and by
 * each cycle) starts it from the newest stored one. A child process is the fresh process.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

it('makes ids that sort after the stored ones when the clock now reads earlier', async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-id-floor-'));
  const file = path.join(dir, 'desk.sqlite');
  const opened = await openDatabase(file, { synchronous: 'OFF' });
  await inTransaction(opened.db, (trx) => recordActivity(trx, new ManualClock('2026-03-10T12:00:00.000Z'), { kind: 'backup.created', detail: 'before the restart', actor: SYSTEM_ACTOR }));
  const stored = (await opened.db.selectFrom('activity').select('id').executeTakeFirstOrThrow()).id;
  await opened.close();

  const script = `
    import { openDatabase } from '${ROOT}/db/connection';
    import { ManualClock } from '${ROOT}/server/core/clock';
    import { newId } from '${ROOT}/server/core/ids';
    import { raiseIdFloorToStored } from '${ROOT}/server/domain/activity/activity';
    const clock = new ManualClock('2026-03-10T11:00:00.000Z');
    const opened = await openDatabase(process.env.DESK_FILE, { migrate: false, synchronous: 'OFF' });
    const before = newId('act', clock);
    await raiseIdFloorToStored(opened.db);
    const after = newId('act', clock);
    await opened.close();
    console.log(JSON.stringify({ before, after }));`;
  fs.writeFileSync(path.join(dir, 'restart.mts'), script);
  const out = execFileSync(path.join(ROOT, 'node_modules/.bin/tsx'), [path.join(dir, 'restart.mts')], { cwd: ROOT, env: { ...process.env, DESK_FILE: file }, encoding: 'utf8' });
  const { before, after } = JSON.parse(out.trim().split('\n').at(-1)!) as { before: string; after: string };
  expect(before < stored).toBe(true); // what a fresh process made before: an hour earlier
  expect(after > stored).toBe(true);
});
