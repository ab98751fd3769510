import type { Db } from '../../../db/connection';
import type { Trx } from '../../../db/transactions';
import { type ReactionSummary } from '../reactions/reactions';
import type { ArtifactAuthorKind } from '../../core/vocabulary';
import { approvalAgeHours, attentionAt, reviewClock, type ApprovalAttention, type ArtifactKind, type ArtifactStatus } from './rules';
import { reactionSummaries } from '../reactions/reaction-store';

/** Outputs as the API shows them, and the queries that read them. */

/** An output as lists show it (everything but its content). */
export interface ArtifactSummary {
  id: string;
  /** The task it was produced for; null when that task was deleted. */
  taskId: string | null;
  /** That task's title; null when the task is gone. */
  taskTitle: string | null;
  /** The loop cycle that produced it; null when written outside a cycle or the run was removed. */
  runId: string | null;
  kind: ArtifactKind;
  title: string;
  status: ArtifactStatus;
  /**
   * 1 for a task's first output; each re-work of the task adds one (linked by parentArtifactId).
   * @isInt
   */
  version: number;
  /** The version this one re-works; null for a first version. */
  parentArtifactId: string | null;
  pinned: boolean;
  tags: string[];
  /** One entry per emoji that has at least one reaction, in the order 👍 👀 🎯 ❤️ 🚀. */
  reactions: ReactionSummary[];
  /**
   * When review began: immutable, never reset by edits, tags, shares, pins or reactions. Older rows
   * without one read their created time instead (counted as `inferred` samples in throughput).
   */
  readyAt: string;
  /** When it was approved or archived (immutable once stamped); null while ready. */
  decidedAt: string | null;
  /** Hours waited since readyAt, to two decimals (never negative); null once decided. */
  approvalAgeHours: number | null;
  /**
   * fresh below the policy's watchHours, watch from watchHours, overdue from overdueHours (compared
   * on the exact elapsed time, not the rounded hours); null once decided.
   */
  approvalAttention: ApprovalAttention | null;
  /** Who wrote this version: `engine` (a loop cycle) or `member` (an edit or a reopen). */
  authorKind: ArtifactAuthorKind;
  /** The member who wrote it; null for the engine. */
  authorUserId: string | null;
  /** That member's name; null for the engine (or a member no longer known). */
  authorName: string | null;
  /**
   * Set when a newer version of the same output replaced this one while it waited: it is out of
   * the review queue (and cannot be decided or edited) but stays in the version chain. Its status
   * stays `ready` (the spec's statuses are ready, approved, archived); no decision was made.
   */
  supersededAt: string | null;
  /** The version that replaced it. */
  supersededById: string | null;
  /** The review owner: the assignee of the originating task; null when it has none (or the task is gone). */
  reviewOwner: { userId: string; name: string } | null;
  createdAt: string;
  updatedAt: string;
}

/** One output with its content (markdown). */
export interface Artifact extends ArtifactSummary {
  /** Markdown: headings, lists, links, emphasis and code. */
  content: string;
}

export function selectArtifacts(db: Db | Trx) {
  return db
    .selectFrom('artifacts')
    .leftJoin('tasks', 'tasks.id', 'artifacts.taskId')
    .leftJoin('users as owner', 'owner.id', 'tasks.assignedToUserId')
    .leftJoin('users as author', 'author.id', 'artifacts.authorUserId')
    .select([
      'artifacts.id',
      'artifacts.taskId',
      'tasks.title as taskTitle',
      'tasks.assignedToUserId as ownerId',
      'owner.name as ownerName',
      'artifacts.runId',
      'artifacts.kind',
      'artifacts.title',
      'artifacts.status',
      'artifacts.version',
      'artifacts.parentArtifactId',
      'artifacts.pinned',
      'artifacts.readyAt',
      'artifacts.decidedAt',
      'artifacts.createdAt',
      'artifacts.updatedAt',
      'artifacts.authorKind',
      'artifacts.authorUserId',
      'author.name as authorName',
      'artifacts.supersededAt',
      'artifacts.supersededById',
    ]);
}

export type ArtifactRow = Awaited<ReturnType<ReturnType<typeof selectArtifacts>['execute']>>[number];

export interface ViewContext {
  now: Date;
  policy: { watchHours: number; overdueHours: number };
  viewerId: string;
}

/** Rows as the API shows them: tags and reactions read for all rows at once, the waiting time from the policy. */
export async function toArtifactSummaries(db: Db | Trx, rows: ArtifactRow[], ctx: ViewContext): Promise<ArtifactSummary[]> {
  const ids = rows.map((r) => r.id);
  const [tagRows, reactions] = await Promise.all([
    ids.length ? db.selectFrom('artifactTags').select(['artifactId', 'tag']).where('artifactId', 'in', ids).orderBy('tag').execute() : [],
    reactionSummaries(db, 'artifact', ids, ctx.viewerId),
  ]);
  const tags = new Map<string, string[]>();
  for (const t of tagRows) tags.set(t.artifactId, [...(tags.get(t.artifactId) ?? []), t.tag]);
  return rows.map((r) => {
    const clock = reviewClock(r);
    // Only a version still in the queue waits: a superseded one has no waiting time.
    const ready = r.status === 'ready' && r.supersededAt === null;
    return {
      id: r.id,
      taskId: r.taskId,
      taskTitle: r.taskTitle ?? null,
      runId: r.runId,
      kind: r.kind,
      title: r.title,
      status: r.status,
      version: r.version,
      parentArtifactId: r.parentArtifactId,
      pinned: r.pinned === 1,
      tags: tags.get(r.id) ?? [],
      reactions: reactions.get(r.id) ?? [],
      readyAt: clock.readyAt,
      decidedAt: r.decidedAt,
      approvalAgeHours: ready ? approvalAgeHours(clock.readyAt, ctx.now) : null,
      approvalAttention: ready ? attentionAt(clock.readyAt, ctx.now, ctx.policy) : null,
      authorKind: r.authorKind,
      authorUserId: r.authorUserId,
      authorName: r.authorUserId === null ? null : (r.authorName ?? null),
      supersededAt: r.supersededAt,
      supersededById: r.supersededById,
      reviewOwner: r.ownerId ? { userId: r.ownerId, name: r.ownerName ?? r.ownerId } : null,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    };
  });
}

/** A JSON id list column; anything unreadable counts as empty (the runner writes these). */
export function parseIdList(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}
