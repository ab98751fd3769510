/**
 * A second floor under the POST ratio, on the desk's own schema: bare Express writing what POST
 * /signals writes (the signal, its `signal.created` event and activity row, with the desk's SQL)
 * into a copy of the year-old dataset, so into its tables, every index and the search triggers,
 * one better-sqlite3 transaction per request, the search queue indexed every INDEX_QUEUE_ROWS rows
 * as the desk indexes it. Against the fresh-table floor (throughput.ts bareTransactionApp) it shows
 * what the schema costs; against the desk, what the desk's own request handling and group commit
 * add or save. Same pragmas as the desk's connection at the ratio's synchronous=NORMAL.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import type express from 'express';
import { monotonicFactory } from 'ulid';
import { openDatabase, PAGE_CACHE_KIB } from '../../../db/connection';
import { pooledRandom } from '../../core/ids';
import { INDEX_QUEUE_ROWS, QUEUE_DOCS_SQL, QUEUE_FTS_SQL } from '../../domain/search/search-index';
import { signalWritingApp, type BenchSignalBody } from '../throughput';
import { copyToFreshDir } from './dataset';

export async function deskSchemaFloorApp(datasetFile: string): Promise<{ app: express.Express; sqlite: Database.Database; dataDir: string }> {
  const dataDir = copyToFreshDir(datasetFile);
  const file = path.join(dataDir, 'desk.sqlite');
  // The schema the desk runs on: a cached dataset may predate the latest migrations, which the desk applies when it opens it.
  await (await openDatabase(file)).close();
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  const insertSignal = sqlite.prepare('insert into "signals" ("id", "kind", "priority", "title", "detail", "source_url", "source_id", "pinned", "created_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const insertEvent = sqlite.prepare('insert into "outbox_events" ("id", "event", "payload", "created_at", "delivered_at") values (?, ?, ?, ?, ?)');
  const insertActivity = sqlite.prepare('insert into "activity" ("id", "kind", "detail", "actor_user_id", "actor_label", "entity_type", "entity_id", "created_at") values (?, ?, ?, ?, ?, ?, ?, ?)');
  const indexDocs = sqlite.prepare(QUEUE_DOCS_SQL);
  const indexFts = sqlite.prepare(QUEUE_FTS_SQL);
  const emptyQueue = sqlite.prepare('DELETE FROM search_queue');
  const owner = sqlite.prepare('select "users"."id", "users"."name" from "workspace" inner join "users" on "users"."id" = "workspace"."owner_user_id"').get() as { id: string; name: string };
  const ulid = monotonicFactory(pooledRandom);
  // The signal and its activity row each queue one row (the search triggers).
  let queued = 0;
  const write = sqlite.transaction((b: BenchSignalBody, id: string, createdAt: string) => {
    insertSignal.run(id, b.kind, b.priority, b.title, b.detail, b.sourceUrl ?? null, null, 0, createdAt);
    const eventId = `evt_${ulid()}`;
    const payload = JSON.stringify({ id: eventId, event: 'signal.created', createdAt, data: { signalId: id, kind: b.kind, priority: b.priority, title: b.title, sourceId: null, origin: 'manual' } });
    insertEvent.run(eventId, 'signal.created', payload, createdAt, null);
    insertActivity.run(`act_${ulid()}`, 'signal.created', `Signal created: ${b.title}`, owner.id, owner.name, 'signal', id, createdAt);
    queued += 2;
    if (queued >= INDEX_QUEUE_ROWS) {
      indexDocs.run();
      indexFts.run();
      emptyQueue.run();
      queued = 0;
    }
  });
  return { app: signalWritingApp(ulid, write), sqlite, dataDir };
}
