import type { Db } from '../../../db/connection';
import type { ActivityRecord } from '../activity/activity-service';
import { parseIdList } from '../artifacts/artifact-view';
import type { MemberRole } from '../members/rules';
import type { RunStatus, RunTrigger } from '../loop/rules';
import type { SignalKind, SignalPriority } from '../signals/signal-view';
import type { Cadence } from '../sources/source-store';
import { toTasks, type Task } from '../tasks/task-store';
import type { WorkspaceProfile } from '../workspace/workspace-store';
import { exportArtifacts, type ArtifactExportRow } from './artifacts-export';
import { exportMemory, type MemoryExportRow } from './memory-export';
import { EVIDENCE_SIGNALS_PER_SOURCE, EXPORT_FILE_FORMAT, EXPORT_VERSION, FULL_EXPORT_CAPS } from './rules';
import { exportSources, type SourceExportRow } from './sources-export';

/**
 * GET /workspace/export: the whole workspace as one JSON file. Secrets never enter it: the rows are
 * read through the export views, which carry no token column (workspace token, ingest tokens,
 * task and output share tokens, webhook secrets, the engine API key kept outside the database),
 * and share state (which tasks are shared, their view counts) is left out.
 */

/** How much of one collection the file holds. */
export interface CollectionInfo {
  /** Rows in the file. @isInt */
  exported: number;
  /** Rows in the workspace. @isInt */
  total: number;
  /** true when total is above the cap (the oldest rows are left out). */
  capped: boolean;
  /** The most rows the file holds for this collection. @isInt */
  cap: number;
}

export interface ExportSignal {
  id: string;
  kind: SignalKind;
  priority: SignalPriority;
  title: string;
  detail: string;
  sourceUrl: string | null;
  /** The exporting desk's source id (in `sources` when that source was exported). */
  sourceId: string | null;
  /** The sender's id of a pushed signal. */
  externalId: string | null;
  pinned: boolean;
  /** When the item says it was published (a feed item's date); null when it does not say. @format date-time */
  publishedAt: string | null;
  /** @format date-time */
  createdAt: string;
}

export interface ExportRun {
  id: string;
  trigger: RunTrigger;
  status: RunStatus;
  engine: string;
  model: string;
  /** @format date-time */
  startedAt: string;
  /** @format date-time */
  finishedAt: string | null;
  /** @isInt */
  inputTokens: number;
  /** @isInt */
  outputTokens: number;
  /** USD, 6 decimals. */
  estimatedCostUsd: number;
  errorMessage: string | null;
  skipReason: string | null;
  /** The engine's account of the cycle (what it did and by which rule); null when it gave none. */
  explanation: string | null;
}

export interface ExportMember {
  id: string;
  name: string;
  role: MemberRole;
  /** @format date-time */
  removedAt: string | null;
}

/** A signal as an appendix cites it. */
export interface EvidenceSignal {
  id: string;
  title: string;
  sourceUrl: string | null;
  /** @format date-time */
  createdAt: string;
}

/** What a source brought in: its signal count and its newest signals. */
export interface SourceEvidence {
  sourceId: string;
  label: string;
  /** Every signal of the source. @isInt */
  signalCount: number;
  /** Its newest signals, at most 20, newest first. */
  recentSignals: EvidenceSignal[];
}

/** What an output was built from: the signals and memory entries its cycle used. */
export interface ArtifactEvidence {
  artifactId: string;
  title: string;
  signals: EvidenceSignal[];
  memory: { id: string; title: string }[];
  /** Ids the cycle used whose signal has since been deleted. */
  missingSignalIds: string[];
  /** Ids the cycle used whose memory entry has since been deleted. */
  missingMemoryIds: string[];
}

export interface FullExportCollections {
  sources: CollectionInfo;
  signals: CollectionInfo;
  tasks: CollectionInfo;
  artifacts: CollectionInfo;
  memory: CollectionInfo;
  runs: CollectionInfo;
  activity: CollectionInfo;
}

export interface FullExport {
  /** Always `desk.workspace-export`: what POST /workspace/import reads. */
  format: string;
  /** The file's shape version (1); an import refuses versions it does not know. @isInt */
  version: number;
  /** @format date-time */
  exportedAt: string;
  /** The workspace's settings (no token, no relay channel, no API key). */
  profile: WorkspaceProfile;
  members: ExportMember[];
  /** Per collection: rows in the file, rows in the workspace, the cap. */
  collections: FullExportCollections;
  /** Oldest first (the sources export's rows). */
  sources: SourceExportRow[];
  /** Newest first: the newest 10,000. */
  signals: ExportSignal[];
  /** Newest first (no share tokens: tasks' share state is not exported). */
  tasks: Task[];
  /** Newest first, with content. */
  artifacts: ArtifactExportRow[];
  /** Newest first, with tags; usage counters are the exporting desk's. */
  memory: MemoryExportRow[];
  /** The newest 200 loop cycles. */
  runs: ExportRun[];
  /** The newest 1,000 activity rows. */
  activity: ActivityRecord[];
  /** Source-evidence appendices: what each source brought, what each output was built from. */
  evidence: { sources: SourceEvidence[]; artifacts: ArtifactEvidence[] };
}

const info = (exported: number, total: number, cap: number): CollectionInfo => ({ exported, total, capped: total > cap, cap });
const count = async (db: Db, table: 'signals' | 'tasks' | 'runs' | 'activity') =>
  Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

/** Rows by id, 500 ids a query. */
async function chunked<T>(ids: readonly string[], read: (part: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += 500) out.push(...(await read(ids.slice(i, i + 500))));
  return out;
}

async function sourceEvidence(db: Db, sources: readonly SourceExportRow[]): Promise<SourceEvidence[]> {
  // One pass over signals with a window (each source's newest N) instead of one query per source.
  const ranked = db
    .selectFrom('signals')
    .select((eb) => [
      'id',
      'sourceId',
      'title',
      'sourceUrl',
      'createdAt',
      eb.fn
        .agg<number>('row_number')
        .over((ob) => ob.partitionBy('sourceId').orderBy('createdAt', 'desc').orderBy('id', 'desc'))
        .as('rank'),
    ])
    .where('sourceId', 'is not', null)
    .as('ranked');
  const [recent, counts] = await Promise.all([
    db.selectFrom(ranked).select(['id', 'sourceId', 'title', 'sourceUrl', 'createdAt']).where('rank', '<=', EVIDENCE_SIGNALS_PER_SOURCE).orderBy('createdAt', 'desc').orderBy('id', 'desc').execute(),
    db.selectFrom('signals').select((eb) => ['sourceId', eb.fn.countAll<number>().as('n')]).where('sourceId', 'is not', null).groupBy('sourceId').execute(),
  ]);
  const bySource = new Map<string, EvidenceSignal[]>();
  for (const r of recent) bySource.set(r.sourceId!, [...(bySource.get(r.sourceId!) ?? []), { id: r.id, title: r.title, sourceUrl: r.sourceUrl, createdAt: r.createdAt }]);
  const n = new Map(counts.map((c) => [c.sourceId, Number(c.n)]));
  return sources.map((s) => ({ sourceId: s.id, label: s.label, signalCount: n.get(s.id) ?? 0, recentSignals: bySource.get(s.id) ?? [] }));
}

async function artifactEvidence(db: Db, artifacts: readonly ArtifactExportRow[]): Promise<ArtifactEvidence[]> {
  const ids = artifacts.map((a) => a.id);
  const inputs = await chunked(ids, (part) => db.selectFrom('artifacts').select(['id', 'sourceSignalIds', 'sourceMemoryIds']).where('id', 'in', part).execute());
  const used = new Map(inputs.map((r) => [r.id, { signals: [...new Set(parseIdList(r.sourceSignalIds))], memory: [...new Set(parseIdList(r.sourceMemoryIds))] }]));
  const signalIds = [...new Set([...used.values()].flatMap((u) => u.signals))];
  const memoryIds = [...new Set([...used.values()].flatMap((u) => u.memory))];
  const [signals, memory] = await Promise.all([
    chunked(signalIds, (part) => db.selectFrom('signals').select(['id', 'title', 'sourceUrl', 'createdAt']).where('id', 'in', part).execute()),
    chunked(memoryIds, (part) => db.selectFrom('memory').select(['id', 'title']).where('id', 'in', part).execute()),
  ]);
  const signalById = new Map(signals.map((s) => [s.id, s]));
  const memoryById = new Map(memory.map((m) => [m.id, m]));
  return artifacts.map((a) => {
    const u = used.get(a.id) ?? { signals: [], memory: [] };
    return {
      artifactId: a.id,
      title: a.title,
      signals: u.signals.flatMap((id) => signalById.get(id) ?? []),
      memory: u.memory.flatMap((id) => memoryById.get(id) ?? []),
      missingSignalIds: u.signals.filter((id) => !signalById.has(id)),
      missingMemoryIds: u.memory.filter((id) => !memoryById.has(id)),
    };
  });
}

export async function fullExport(db: Db, profile: WorkspaceProfile, cadence: Cadence): Promise<FullExport> {
  const now = cadence.now;
  const caps = FULL_EXPORT_CAPS;
  const sources = await exportSources(db, cadence, profile.timezone, caps.sources);
  const signalRows = await db.selectFrom('signals').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(caps.signals).execute();
  const taskRows = await db.selectFrom('tasks').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(caps.tasks).execute();
  const tasks: Task[] = [];
  for (let i = 0; i < taskRows.length; i += 500) tasks.push(...(await toTasks(db, taskRows.slice(i, i + 500))));
  const artifacts = await exportArtifacts(db, caps.artifacts);
  const memory = await exportMemory(db, now, profile.timezone, caps.memory);
  const runs = await db.selectFrom('runs').selectAll().orderBy('startedAt', 'desc').orderBy('id', 'desc').limit(caps.runs).execute();
  const activity = await db.selectFrom('activity').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(caps.activity).execute();
  const members = await db.selectFrom('users').select(['id', 'name', 'role', 'removedAt']).orderBy('createdAt').orderBy('id').execute();
  const [signalTotal, taskTotal, runTotal, activityTotal] = await Promise.all([count(db, 'signals'), count(db, 'tasks'), count(db, 'runs'), count(db, 'activity')]);
  return {
    format: EXPORT_FILE_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: now.toISOString(),
    profile,
    members,
    collections: {
      sources: info(sources.rows.length, sources.total, caps.sources),
      signals: info(signalRows.length, signalTotal, caps.signals),
      tasks: info(tasks.length, taskTotal, caps.tasks),
      artifacts: info(artifacts.rows.length, artifacts.total, caps.artifacts),
      memory: info(memory.rows.length, memory.total, caps.memory),
      runs: info(runs.length, runTotal, caps.runs),
      activity: info(activity.length, activityTotal, caps.activity),
    },
    sources: sources.rows,
    signals: signalRows.map((s) => ({
      id: s.id,
      kind: s.kind,
      priority: s.priority,
      title: s.title,
      detail: s.detail,
      sourceUrl: s.sourceUrl,
      sourceId: s.sourceId,
      externalId: s.externalId ?? null,
      pinned: s.pinned === 1,
      publishedAt: s.publishedAt ?? null,
      createdAt: s.createdAt,
    })),
    tasks,
    artifacts: artifacts.rows,
    memory: memory.rows,
    runs: runs.map((r) => ({
      id: r.id,
      trigger: r.trigger,
      status: r.status,
      engine: r.engine,
      model: r.model,
      startedAt: r.startedAt,
      finishedAt: r.finishedAt,
      inputTokens: r.inputTokens,
      outputTokens: r.outputTokens,
      estimatedCostUsd: Math.round(r.costMicroUsd) / 1_000_000,
      errorMessage: r.errorMessage,
      skipReason: r.skipReason,
      explanation: r.explanation ?? null,
    })),
    activity,
    evidence: { sources: await sourceEvidence(db, sources.rows), artifacts: await artifactEvidence(db, artifacts.rows) },
  };
}
