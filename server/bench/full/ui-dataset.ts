/**
 * The dataset the UI pages are loaded on when asked for more signals than the full-size dataset
 * holds (`--ui-signals 1000000`, the "1M signals"): a copy of the built dataset topped up
 * through the inbound webhook's delivery path (signals.receive, batches of 100 naming their source,
 * 100 batches per transaction, as scale.ts grows its desk), the new signals spread over the
 * dataset's year. Cached beside the dataset, per signal count, like the dataset itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { inTransaction } from '../../../db/transactions';
import { ManualClock } from '../../core/clock';
import { readInboundDelivery } from '../../domain/signals/signal-rules';
import { startTestDesk } from '../../testing/desk';
import { rng } from '../measure';
import { WORDS } from './bench-engine';
import { cacheFileFor, copyToFreshDir, DATASET_DAYS, DATASET_START } from './dataset';

const BATCH = 100;
const BATCHES_PER_TRANSACTION = 100;

/** The database file holding the dataset of `scale` with `signals` signals in all (the dataset's own file when it holds that many). */
export async function datasetWithSignals(scale: number, signals: number, log: (line: string) => void): Promise<string> {
  const base = cacheFileFor(scale);
  const dataDir = copyToFreshDir(base);
  const desk = await startTestDesk({ clock: new ManualClock(DATASET_START), dataDir, ownsDataDir: true });
  let stopped = false;
  const file = path.join(path.dirname(base), `signals-${signals}`, 'desk.sqlite');
  try {
    const have = Number((await sql<{ n: number }>`select count(*) as n from signals`.execute(desk.services.db)).rows[0].n);
    if (signals <= have) return base;
    if (fs.existsSync(file)) return file;
    const sourceIds = (await desk.services.db.selectFrom('sources').select('id').orderBy('id').execute()).map((s) => s.id);
    const toAdd = signals - have;
    // Spread over the year: the clock moves by the same step after every batch.
    const step = Math.floor((DATASET_DAYS * 86_400_000) / Math.ceil(toAdd / BATCH));
    const random = rng(29);
    const word = () => WORDS[Math.floor(random() * WORDS.length)];
    const t0 = performance.now();
    let added = 0;
    while (added < toAdd) {
      await inTransaction(desk.services.db, async () => {
        for (let b = 0; b < BATCHES_PER_TRANSACTION && added < toAdd; b++) {
          const n = Math.min(BATCH, toAdd - added);
          const batch = Array.from({ length: n }, (_, k) => ({
            kind: 'news' as const,
            priority: 'normal' as const,
            title: `${word()} ${word()} ${word()} top-up ${added + k}`,
            detail: `Customers report ${word()} ${word()} ${word()} ${word()} ${word()} ${word()}.`,
            sourceId: sourceIds[(added + k) % sourceIds.length],
          }));
          await desk.services.signals.receive(readInboundDelivery({ signals: batch }, `ui-top-up-${added}`));
          added += n;
          desk.clock.advance(step);
        }
      });
      log(`ui dataset: ${have + added} / ${signals} signals (${Math.round(added / ((performance.now() - t0) / 1000))} signals/s)`);
    }
    await desk.stop({ keepDataDir: true });
    stopped = true;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // Copy then rename, so an interrupted copy is never taken for a built dataset.
    fs.copyFileSync(path.join(dataDir, 'desk.sqlite'), `${file}.part`);
    fs.renameSync(`${file}.part`, file);
    return file;
  } finally {
    if (stopped) fs.rmSync(dataDir, { recursive: true, force: true });
    else await desk.stop();
  }
}
