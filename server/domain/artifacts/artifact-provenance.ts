import type { Db } from '../../../db/connection';
import type { MemoryKind } from '../memory/rules';
import type { SignalKind, SignalPriority } from '../signals/signal-view';
import { parseIdList } from './artifact-view';
import type { ArtifactAuthorKind } from '../../core/vocabulary';
import { MAX_VERSION_HOPS, type ArtifactKind, type ArtifactStatus } from './rules';

/** Where an output came from: the inputs its cycle saw, and its version chain. */

export interface ArtifactSourceSignal {
  id: string;
  kind: SignalKind;
  priority: SignalPriority;
  title: string;
  sourceUrl: string | null;
  sourceId: string | null;
  /** The signal's source label, when it has a source. */
  sourceLabel: string | null;
  createdAt: string;
}

export interface ArtifactSourceMemory {
  id: string;
  kind: MemoryKind;
  title: string;
  content: string;
  pinned: boolean;
  /** Set when the entry was archived after the cycle read it (it is still shown). */
  archivedAt: string | null;
  createdAt: string;
}

export interface ArtifactSources {
  artifactId: string;
  /** The signals the cycle saw, in the order it used them. */
  signals: ArtifactSourceSignal[];
  /** The memory entries the cycle pulled, in the order it used them. */
  memory: ArtifactSourceMemory[];
  /** Ids the cycle saw whose signal has since been deleted. */
  missingSignalIds: string[];
  /** Ids the cycle pulled whose memory entry has since been deleted. */
  missingMemoryIds: string[];
}

/** One version of an output, as the chain lists it. */
export interface ArtifactVersion {
  id: string;
  /** @isInt */
  version: number;
  kind: ArtifactKind;
  title: string;
  status: ArtifactStatus;
  parentArtifactId: string | null;
  runId: string | null;
  readyAt: string;
  decidedAt: string | null;
  createdAt: string;
  /** `engine`: a loop cycle wrote this version; `member`: a member's edit or reopen. */
  authorKind: ArtifactAuthorKind;
  /** The member who wrote it; null for the engine. */
  authorUserId: string | null;
  /** That member's name; null for the engine. */
  authorName: string | null;
  /** Set when a newer version replaced this one while it waited (it left the queue). */
  supersededAt: string | null;
  supersededById: string | null;
  /** true for the output the chain was asked about. */
  current: boolean;
}

export interface ArtifactVersions {
  artifactId: string;
  /** The chain, newest first (highest version, then latest created). */
  versions: ArtifactVersion[];
  /** true when the 12-hop bound stopped the walk with versions beyond it (older or newer). */
  truncated: boolean;
}

/** Keeps `ids` order; `found` are the rows that still exist. */
function inOrder<T extends { id: string }>(ids: string[], found: T[]): { rows: T[]; missing: string[] } {
  const byId = new Map(found.map((r) => [r.id, r]));
  const unique = [...new Set(ids)];
  return { rows: unique.flatMap((id) => byId.get(id) ?? []), missing: unique.filter((id) => !byId.has(id)) };
}

export async function artifactSources(db: Db, artifact: { id: string; sourceSignalIds: string; sourceMemoryIds: string }): Promise<ArtifactSources> {
  const signalIds = parseIdList(artifact.sourceSignalIds);
  const memoryIds = parseIdList(artifact.sourceMemoryIds);
  const [signals, memory] = await Promise.all([
    signalIds.length
      ? db
          .selectFrom('signals')
          .leftJoin('sources', 'sources.id', 'signals.sourceId')
          .select([
            'signals.id',
            'signals.kind',
            'signals.priority',
            'signals.title',
            'signals.sourceUrl',
            'signals.sourceId',
            'sources.label as sourceLabel',
            'signals.createdAt',
          ])
          .where('signals.id', 'in', signalIds)
          .execute()
      : [],
    memoryIds.length
      ? db.selectFrom('memory').select(['id', 'kind', 'title', 'content', 'pinned', 'archivedAt', 'createdAt']).where('id', 'in', memoryIds).execute()
      : [],
  ]);
  const s = inOrder(signalIds, signals);
  const m = inOrder(memoryIds, memory);
  return {
    artifactId: artifact.id,
    signals: s.rows.map((r) => ({ ...r, sourceLabel: r.sourceLabel ?? null })),
    memory: m.rows.map((r) => ({ ...r, pinned: r.pinned === 1 })),
    missingSignalIds: s.missing,
    missingMemoryIds: m.missing,
  };
}

export function selectVersions(db: Db) {
  return db
    .selectFrom('artifacts')
    .leftJoin('users as author', 'author.id', 'artifacts.authorUserId')
    .select([
      'artifacts.id',
      'artifacts.version',
      'artifacts.kind',
      'artifacts.title',
      'artifacts.status',
      'artifacts.parentArtifactId',
      'artifacts.runId',
      'artifacts.readyAt',
      'artifacts.decidedAt',
      'artifacts.createdAt',
      'artifacts.authorKind',
      'artifacts.authorUserId',
      'author.name as authorName',
      'artifacts.supersededAt',
      'artifacts.supersededById',
    ]);
}
type VersionRow = Awaited<ReturnType<ReturnType<typeof selectVersions>['execute']>>[number];

/**
 * The chain around `start`: back through parentArtifactId at most MAX_VERSION_HOPS hops, and
 * forward through the versions that re-work it (children, their children ...) at most
 * MAX_VERSION_HOPS hops. Each hop is one indexed query (artifacts_parent for the forward walk).
 */
export async function artifactVersions(db: Db, start: VersionRow): Promise<ArtifactVersions> {
  const seen = new Map<string, VersionRow>([[start.id, start]]);
  let truncated = false;

  let cursor = start;
  for (let hop = 0; cursor.parentArtifactId !== null; hop++) {
    if (hop === MAX_VERSION_HOPS || seen.has(cursor.parentArtifactId)) {
      truncated = hop === MAX_VERSION_HOPS;
      break;
    }
    const parent = await selectVersions(db).where('artifacts.id', '=', cursor.parentArtifactId).executeTakeFirst();
    if (!parent) break;
    seen.set(parent.id, parent);
    cursor = parent;
  }

  let frontier = [start.id];
  for (let hop = 0; frontier.length > 0; hop++) {
    const children = (await selectVersions(db).where('artifacts.parentArtifactId', 'in', frontier).execute()).filter((c) => !seen.has(c.id));
    if (children.length === 0) break;
    if (hop === MAX_VERSION_HOPS) {
      truncated = true;
      break;
    }
    for (const c of children) seen.set(c.id, c);
    frontier = children.map((c) => c.id);
  }

  const versions = [...seen.values()]
    .sort((a, b) => b.version - a.version || b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id))
    .map((r) => ({ ...r, authorName: r.authorUserId === null ? null : (r.authorName ?? null), current: r.id === start.id }));
  return { artifactId: start.id, versions, truncated };
}
