/**
 * The dataset the UI pages are loaded on when asked for more signals than the full-size dataset
 * holds (`--ui-signals 1000000`, the "1M signals"): a copy of the built dataset topped up
 * with the rows the inbound webhook's delivery path writes for each signal (the signal, its
 * `signal.received` activity row, its `signal.created` outbox event), written as raw better-sqlite3
 * statements with the desk's own SQL, as desk-schema-floor.ts writes them, and indexed for search
 * with the desk's own queue SQL. Through signals.receive itself (the first version of this file)
 * the top-up ran at ~75 signals/s on the shared machine: 900k signals took hours.
 *
 * The new signals are spread evenly over the dataset's year, each id minted at its own arrival time
 * (the lists' order is the ids' order), round-robin over the sources. As in the built dataset, where
 * the loop runs twice a day, each signal is triaged half a day after it arrived and its event was
 * delivered; the last half-day's signals wait for the loop. Cached beside the dataset, per count.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { monotonicFactory } from 'ulid';
import { openDatabase } from '../../../db/connection';
import { QUEUE_DOCS_SQL, QUEUE_FTS_SQL } from '../../domain/search/search-index';
import { rng } from '../measure';
import { WORDS } from './bench-engine';
import { cacheFileFor, DATASET_DAYS, DATASET_END, DATASET_START } from './dataset';

/** Signals per transaction; the search queue is indexed once per transaction (one FTS5 segment for the lot). */
const PER_TRANSACTION = 20_000;
/** The loop triages a signal and its event is delivered this long after it arrived. */
const HANDLED_AFTER_MS = 12 * 3_600_000;
const KINDS = ['news', 'review', 'mention', 'note'] as const;
const PRIORITIES = ['low', 'normal', 'normal', 'high', 'urgent'] as const;

/** The database file holding the dataset of `scale` with `signals` signals in all (the dataset's own file when it holds that many). */
export async function datasetWithSignals(scale: number, signals: number, log: (line: string) => void): Promise<string> {
  const base = cacheFileFor(scale);
  const file = path.join(path.dirname(base), `signals-${signals}-v2`, 'desk.sqlite');
  if (fs.existsSync(file)) {
    log(`ui dataset: reused ${file} (${signals} signals)`);
    return file;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const part = `${file}.part`;
  fs.copyFileSync(base, part);
  // The schema the desk runs on: the cached dataset may predate the latest migrations, which the desk applies when it opens it.
  await (await openDatabase(part)).close();
  const sqlite = new Database(part);
  try {
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = OFF');
    const have = (sqlite.prepare('select count(*) as n from signals').get() as { n: number }).n;
    if (signals <= have) {
      sqlite.close();
      fs.rmSync(part);
      return base;
    }
    topUp(sqlite, signals - have, log);
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    sqlite.close();
  } catch (err) {
    sqlite.close();
    fs.rmSync(part, { force: true });
    throw err;
  }
  // Written under another name then renamed, so an interrupted top-up is never taken for a built dataset.
  fs.renameSync(part, file);
  return file;
}

function topUp(sqlite: Database.Database, toAdd: number, log: (line: string) => void): void {
  const insertSignal = sqlite.prepare('insert into "signals" ("id", "kind", "priority", "title", "detail", "source_url", "source_id", "pinned", "created_at", "triaged_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const insertEvent = sqlite.prepare('insert into "outbox_events" ("id", "event", "payload", "created_at", "delivered_at") values (?, ?, ?, ?, ?)');
  const insertActivity = sqlite.prepare('insert into "activity" ("id", "kind", "detail", "actor_user_id", "actor_label", "entity_type", "entity_id", "created_at") values (?, ?, ?, ?, ?, ?, ?, ?)');
  const indexDocs = sqlite.prepare(QUEUE_DOCS_SQL);
  const indexFts = sqlite.prepare(QUEUE_FTS_SQL);
  const emptyQueue = sqlite.prepare('DELETE FROM search_queue');
  const sources = sqlite.prepare('select id, label from sources order by id').all() as { id: string; label: string }[];
  const ulid = monotonicFactory();
  const random = rng(29);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const words = (k: number) => Array.from({ length: k }, () => pick(WORDS)).join(' ');
  const start = Date.parse(DATASET_START);
  const end = Date.parse(DATASET_END);
  const step = (DATASET_DAYS * 86_400_000 - 3_600_000) / toAdd;
  const iso = (ms: number) => new Date(ms).toISOString();

  const batch = sqlite.transaction((from: number, n: number) => {
    for (let i = from; i < from + n; i++) {
      const at = Math.floor(start + i * step);
      const createdAt = iso(at);
      const handled = at + HANDLED_AFTER_MS <= end ? iso(at + HANDLED_AFTER_MS) : null;
      const source = sources[i % sources.length];
      const kind = pick(KINDS);
      const priority = pick(PRIORITIES);
      const title = `${words(3)} top-up ${i}`;
      const id = `sig_${ulid(at)}`;
      insertSignal.run(id, kind, priority, title, `Customers report ${words(20)}.`, null, source.id, 0, createdAt, handled);
      const eventId = `evt_${ulid(at)}`;
      const payload = JSON.stringify({ id: eventId, event: 'signal.created', createdAt, data: { signalId: id, kind, priority, title, sourceId: source.id, origin: 'webhook' } });
      insertEvent.run(eventId, 'signal.created', payload, createdAt, handled);
      insertActivity.run(`act_${ulid(at)}`, 'signal.received', `Signal received through the inbound webhook for ${source.label}: ${title}`, null, 'webhook', 'signal', id, createdAt);
    }
    indexDocs.run();
    indexFts.run();
    emptyQueue.run();
  });

  const t0 = performance.now();
  for (let added = 0; added < toAdd; added += PER_TRANSACTION) {
    const n = Math.min(PER_TRANSACTION, toAdd - added);
    batch(added, n);
    log(`ui dataset: ${added + n} / ${toAdd} signals added (${Math.round((added + n) / ((performance.now() - t0) / 1000))} signals/s)`);
  }
}
