import type Database from 'better-sqlite3';
import type { Acks } from './load';

/**
 * What the crash test checks in the database after the restart, each as a list of problems (an
 * empty list passes), so a failure names every lost or half-applied write at once. Everything is
 * checked against what the desk acknowledged before the kill, and the all-or-nothing changes (a
 * cycle, an import) also against what it did not acknowledge.
 */

type Db = Database.Database;

const ids = (db: Db, sql: string, ...params: unknown[]) => new Set((db.prepare(sql).all(...params) as { id: string }[]).map((r) => r.id));
const missing = (acked: Iterable<string>, present: Set<string>) => [...acked].filter((id) => !present.has(id));

/** Signals, sources, tasks (with their tags), comments, memory (with its importance), decisions. */
export function lostWrites(db: Db, acks: Acks): Record<string, string[]> {
  const tagsOf = (taskId: string) => (db.prepare('SELECT tag FROM task_tags WHERE task_id = ? ORDER BY tag').all(taskId) as { tag: string }[]).map((r) => r.tag);
  const comment = db.prepare('SELECT task_id AS taskId, text FROM task_comments WHERE id = ?');
  const memory = db.prepare('SELECT importance FROM memory WHERE id = ?');
  const artifact = db.prepare('SELECT status, decided_at AS decidedAt FROM artifacts WHERE id = ?');
  const tasks = ids(db, 'SELECT id FROM tasks');
  return {
    signals: missing(acks.signals, ids(db, 'SELECT id FROM signals')),
    sources: missing(acks.sources, ids(db, 'SELECT id FROM sources')),
    tasks: missing(acks.tasks.keys(), tasks),
    taskTags: [...acks.tasks].filter(([id, tags]) => tags !== null && tagsOf(id).join(',') !== [...tags].sort().join(',')).map(([id]) => id),
    comments: [...acks.comments].filter(([id, c]) => JSON.stringify(comment.get(id)) !== JSON.stringify(c)).map(([id]) => id),
    memory: [...acks.memory].filter(([id, importance]) => {
      const row = memory.get(id) as { importance: number | null } | undefined;
      return !row || (importance !== null && row.importance !== importance);
    }).map(([id]) => id),
    decisions: [...acks.decisions].filter(([id, status]) => {
      const row = artifact.get(id) as { status: string; decidedAt: string | null } | undefined;
      return row?.status !== status || row.decidedAt === null;
    }).map(([id]) => id),
  };
}

/**
 * Cycles are one transaction: a completed run has every output, task and memory entry it names
 * and its run.completed event; a run that did not complete (failed, or left running by the kill)
 * has none; no output or memory entry names a run that did not complete. Acknowledged runs are
 * completed.
 */
export function halfAppliedCycles(db: Db, acks: Acks): string[] {
  const problems: string[] = [];
  const runs = db.prepare('SELECT id, status, artifact_ids AS artifactIds, created_task_ids AS createdTaskIds, memory_ids AS memoryIds FROM runs').all() as {
    id: string;
    status: string;
    artifactIds: string;
    createdTaskIds: string;
    memoryIds: string;
  }[];
  const byId = new Map(runs.map((r) => [r.id, r]));
  const artifactsOf = db.prepare('SELECT id FROM artifacts WHERE run_id = ?');
  const memoryOf = db.prepare('SELECT id FROM memory WHERE created_by_run_id = ?');
  const completedEvents = db.prepare(`SELECT count(*) AS n FROM outbox_events WHERE event = 'run.completed' AND payload LIKE ?`);
  const tasks = ids(db, 'SELECT id FROM tasks');
  for (const run of runs) {
    const outputs = new Set((artifactsOf.all(run.id) as { id: string }[]).map((r) => r.id));
    const memory = new Set((memoryOf.all(run.id) as { id: string }[]).map((r) => r.id));
    const events = (completedEvents.get(`%"${run.id}"%`) as { n: number }).n;
    if (run.status === 'completed') {
      const named = JSON.parse(run.artifactIds) as string[];
      if (named.length !== outputs.size || named.some((id) => !outputs.has(id))) problems.push(`${run.id}: outputs ${JSON.stringify(named)} but stored ${JSON.stringify([...outputs])}`);
      const lostTasks = (JSON.parse(run.createdTaskIds) as string[]).filter((id) => !tasks.has(id));
      if (lostTasks.length > 0) problems.push(`${run.id}: created tasks missing ${lostTasks.join(', ')}`);
      const namedMemory = JSON.parse(run.memoryIds) as string[];
      if (namedMemory.some((id) => !memory.has(id))) problems.push(`${run.id}: memory ${JSON.stringify(namedMemory)} but stored ${JSON.stringify([...memory])}`);
      if (events !== 1) problems.push(`${run.id}: completed with ${events} run.completed events`);
    } else if (outputs.size > 0 || memory.size > 0 || events > 0) {
      problems.push(`${run.id} is ${run.status} but wrote ${outputs.size} outputs, ${memory.size} memory entries, ${events} run.completed events`);
    }
  }
  for (const acked of acks.runs) {
    const run = byId.get(acked.id);
    if (run?.status !== 'completed') problems.push(`acknowledged run ${acked.id} is ${run?.status ?? 'missing'}`);
    else if (JSON.stringify(JSON.parse(run.artifactIds)) !== JSON.stringify(acked.artifactIds)) problems.push(`acknowledged run ${acked.id} answered outputs ${JSON.stringify(acked.artifactIds)}, stored ${run.artifactIds}`);
  }
  const orphans = db.prepare(`SELECT a.id FROM artifacts a LEFT JOIN runs r ON r.id = a.run_id WHERE a.run_id IS NOT NULL AND (r.id IS NULL OR r.status != 'completed')`).all() as { id: string }[];
  for (const o of orphans) problems.push(`output ${o.id} names a run that did not complete`);
  return problems;
}

/**
 * Imports are one transaction: each file's source, three signals and two memory entries are all
 * there or none is, with one workspace.imported event per applied import; acknowledged ones are
 * all there. Returns the problems and how many imports were applied.
 */
export function halfAppliedImports(db: Db, acks: Acks): { problems: string[]; applied: number } {
  const count = (sql: string, marker: string) => (db.prepare(sql).get({ m: marker }) as { n: number }).n;
  const problems: string[] = [];
  let applied = 0;
  for (const marker of acks.importsSent) {
    const found = [
      count(`SELECT count(*) AS n FROM sources WHERE label = 'Imported ' || @m`, marker),
      count(`SELECT count(*) AS n FROM signals s JOIN sources src ON src.id = s.source_id WHERE s.title LIKE 'Imported ' || @m || ' signal %' AND src.label = 'Imported ' || @m`, marker),
      count(`SELECT count(*) AS n FROM memory WHERE title LIKE 'Imported ' || @m || ' memory %'`, marker),
    ];
    const whole = found.join() === '1,3,2';
    if (whole) applied += 1;
    else if (found.join() !== '0,0,0') problems.push(`import ${marker} half applied: ${found.join()} (source, linked signals, memory)`);
    if (acks.imports.includes(marker) && !whole) problems.push(`acknowledged import ${marker} is not all there: ${found.join()}`);
  }
  const events = (db.prepare(`SELECT count(*) AS n FROM outbox_events WHERE event = 'workspace.imported'`).get() as { n: number }).n;
  if (events !== applied) problems.push(`${applied} imports applied, ${events} workspace.imported events`);
  return { problems, applied };
}

/**
 * The outbox and the delivery log: every subscription holds exactly one delivery per stored event
 * it subscribes to (none for an event that was never committed), and every one has succeeded.
 */
export function deliveryGaps(db: Db, subscriptionIds: string[], events: readonly string[]): string[] {
  const expected = ids(db, `SELECT id FROM outbox_events WHERE event IN (${events.map(() => '?').join(',')})`, ...events);
  const problems: string[] = [];
  for (const sub of subscriptionIds) {
    const rows = db.prepare('SELECT event_id AS eventId, state FROM outbound_deliveries WHERE subscription_id = ?').all(sub) as { eventId: string; state: string }[];
    const delivered = new Set(rows.map((r) => r.eventId));
    if (rows.length !== delivered.size) problems.push(`${sub}: ${rows.length - delivered.size} events queued twice`);
    const lost = [...expected].filter((id) => !delivered.has(id));
    if (lost.length > 0) problems.push(`${sub}: no delivery for ${lost.length} stored events (${lost.slice(0, 5).join(', ')})`);
    const phantom = [...delivered].filter((id) => !expected.has(id));
    if (phantom.length > 0) problems.push(`${sub}: deliveries of ${phantom.length} events that are not in the outbox`);
    const unfinished = rows.filter((r) => r.state !== 'succeeded');
    if (unfinished.length > 0) problems.push(`${sub}: ${unfinished.length} deliveries not succeeded (${[...new Set(unfinished.map((r) => r.state))].join(', ')})`);
  }
  return problems;
}

/** Every id a stored event of `event` names. */
function namedBy(db: Db, event: string): Set<string> {
  const named = new Set<string>();
  for (const { payload } of db.prepare('SELECT payload FROM outbox_events WHERE event = ?').all(event) as { payload: string }[]) {
    for (const m of payload.matchAll(/"([a-z]{3}_[0-9A-Za-z]+)"/g)) named.add(m[1]);
  }
  return named;
}

/**
 * A change writes its row, its activity row and its event in one transaction: every task,
 * comment, memory entry, signal and source the desk holds (imported ones aside: an import
 * writes one `workspace.imported` for the whole file) has its `<kind>.created` event and an
 * activity row naming it.
 */
export function changesWithoutEvents(db: Db): string[] {
  const activity = ids(db, 'SELECT entity_id AS id FROM activity WHERE entity_id IS NOT NULL');
  const problems: string[] = [];
  for (const [table, event, notImported] of [
    ['tasks', 'task.created', '1'],
    ['task_comments', 'comment.created', '1'],
    ['memory', 'memory.created', `title NOT LIKE 'Imported %'`],
    ['signals', 'signal.created', `title NOT LIKE 'Imported %'`],
    ['sources', 'source.created', `label NOT LIKE 'Imported %'`],
  ] as const) {
    const rows = ids(db, `SELECT id FROM ${table} WHERE ${notImported}`);
    const named = namedBy(db, event);
    const noEvent = [...rows].filter((id) => !named.has(id));
    if (noEvent.length > 0) problems.push(`${table}: ${noEvent.length} of ${rows.size} rows without ${event} (${noEvent.slice(0, 3).join(', ')})`);
    const noActivity = [...rows].filter((id) => !activity.has(id));
    if (noActivity.length > 0) problems.push(`${table}: ${noActivity.length} of ${rows.size} rows without an activity row naming them (${noActivity.slice(0, 3).join(', ')})`);
  }
  return problems;
}
