import type { Db } from '../../../db/connection';
import { inTransaction, type Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { conflict, invalid, notFound } from '../../core/errors';
import { recordActivity } from '../activity/activity';
import { emit } from '../events/outbox';
import { resolveActor, type MemberActor } from '../members/resolve-actor';
import { REVIEWER_ROLES, roleNotPermitted } from '../members/rules';
import { checkTag } from '../tasks/rules';
import { decideReadyArtifacts, replaceArtifactTags, updateArtifact } from './artifact-store';
import { approvalAgeHours, BULK_DECISION_ACTIONS, MAX_ARTIFACT_TAGS, reviewClock, type BulkDecisionAction } from './rules';

/**
 * Decisions on outputs (approve, archive: ready ones only, decidedAt stamped once) and the edits
 * that never touch the review clock (tags, pin): readyAt and decidedAt are written nowhere else.
 */

export type Decision = 'approved' | 'archived';

export interface BulkDecisionResult {
  action: BulkDecisionAction;
  /** The status the decided outputs now have. */
  status: Decision;
  /**
   * Outputs decided by this call (every output that was ready).
   * @isInt
   */
  decided: number;
  /** Their ids, oldest review first. */
  artifactIds: string[];
  /** @format date-time */
  decidedAt: string;
}

/** Approving and archiving is for decision-capable members (owner, admin, editor). */
function requireReviewer(actor: MemberActor): void {
  if (!REVIEWER_ROLES.includes(actor.role)) {
    throw roleNotPermitted('asUserId', actor.role, 'only owners, admins and editors may decide outputs');
  }
}

function decidable(trx: Trx) {
  return trx
    .selectFrom('artifacts')
    .leftJoin('tasks', 'tasks.id', 'artifacts.taskId')
    .select([
      'artifacts.id',
      'artifacts.taskId',
      'artifacts.title',
      'artifacts.status',
      'artifacts.supersededById',
      'artifacts.readyAt',
      'artifacts.createdAt',
      'artifacts.updatedAt',
      'tasks.assignedToUserId as ownerId',
    ]);
}
type DecidableRow = Awaited<ReturnType<ReturnType<typeof decidable>['execute']>>[number];

async function stamp(trx: Trx, clock: Clock, rows: DecidableRow[], to: Decision, actor: MemberActor, via: 'single' | 'bulk'): Promise<string> {
  const now = clock.now();
  const decidedAt = now.toISOString();
  const ids = rows.map((r) => r.id);
  // Only rows still ready change: decidedAt is stamped once and never rewritten.
  for (let i = 0; i < ids.length; i += 500) {
    await decideReadyArtifacts(trx, ids.slice(i, i + 500), to, decidedAt);
  }
  for (const r of rows) {
    const { readyAt } = reviewClock(r);
    await recordActivity(trx, clock, {
      kind: to === 'approved' ? 'artifact.approved' : 'artifact.archived',
      detail: `${to === 'approved' ? 'Approved' : 'Archived'} output${via === 'bulk' ? ' (bulk)' : ''}: ${r.title}`,
      actor,
      entityType: 'artifact',
      entityId: r.id,
    });
    await emit(trx, clock, to === 'approved' ? 'artifact.approved' : 'artifact.archived', {
      artifactId: r.id,
      taskId: r.taskId,
      title: r.title,
      readyAt,
      decidedAt,
      waitHours: approvalAgeHours(readyAt, now),
      via,
      reviewOwnerId: r.ownerId ?? null,
    });
  }
  return decidedAt;
}

/** Approves or archives one ready output; 409 `artifact_decided` when it is already decided. */
export async function decideOne(db: Db, clock: Clock, id: string, to: Decision, asUserId?: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const actor = await resolveActor(trx, asUserId);
    requireReviewer(actor);
    const row = await decidable(trx).where('artifacts.id', '=', id).executeTakeFirst();
    if (!row) throw notFound('artifact', id);
    if (row.status !== 'ready') throw conflict('artifact_decided', `Output ${id} is already ${row.status}; only ready outputs can be decided`);
    if (row.supersededById !== null) throw conflict('artifact_superseded', `A newer version of this output (${row.supersededById}) replaced it; decide that one`);
    await stamp(trx, clock, [row], to, actor, 'single');
  });
}

/** approve_all / archive_all: every ready output, one activity row and one event each. */
export async function decideAll(db: Db, clock: Clock, action: string, asUserId?: string): Promise<BulkDecisionResult> {
  if (!(BULK_DECISION_ACTIONS as readonly string[]).includes(action)) throw invalid('action', `must be one of ${BULK_DECISION_ACTIONS.join(', ')}`);
  const to: Decision = action === 'approve_all' ? 'approved' : 'archived';
  return inTransaction(db, async (trx) => {
    const actor = await resolveActor(trx, asUserId);
    requireReviewer(actor);
    const rows = await decidable(trx).where('artifacts.status', '=', 'ready').where('artifacts.supersededAt', 'is', null).orderBy('artifacts.readyAt').orderBy('artifacts.id').execute();
    const decidedAt = rows.length ? await stamp(trx, clock, rows, to, actor, 'bulk') : clock.now().toISOString();
    return { action: action as BulkDecisionAction, status: to, decided: rows.length, artifactIds: rows.map((r) => r.id), decidedAt };
  });
}

/** The tag list as given: at most MAX_ARTIFACT_TAGS distinct lowercase-hyphen tags. */
export function checkArtifactTags(tags: unknown): string[] {
  if (!Array.isArray(tags)) throw invalid('tags', 'must be an array');
  const out: string[] = [];
  tags.forEach((t, i) => {
    const tag = checkTag(t, `tags[${i}]`);
    if (!out.includes(tag)) out.push(tag);
  });
  if (out.length > MAX_ARTIFACT_TAGS) throw invalid('tags', `must hold at most ${MAX_ARTIFACT_TAGS} tags`);
  return out.sort();
}

async function existing(trx: Trx, id: string) {
  const row = await trx.selectFrom('artifacts').select(['id', 'title', 'pinned']).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('artifact', id);
  return row;
}

/** Replaces an output's tags; readyAt, decidedAt and status are untouched. */
export async function setTags(db: Db, clock: Clock, id: string, input: unknown, asUserId?: string): Promise<string[]> {
  const tags = checkArtifactTags(input);
  return inTransaction(db, async (trx) => {
    const actor = await resolveActor(trx, asUserId);
    const row = await existing(trx, id);
    const before = (await trx.selectFrom('artifactTags').select('tag').where('artifactId', '=', id).orderBy('tag').execute()).map((t) => t.tag);
    if (before.join(',') === tags.join(',')) return tags;
    await replaceArtifactTags(trx, id, tags);
    await updateArtifact(trx, id, { updatedAt: clock.now().toISOString() });
    await recordActivity(trx, clock, {
      kind: 'artifact.tags_changed',
      detail: `Tags of output "${row.title}" set to ${tags.length ? tags.join(', ') : '(none)'}`,
      actor,
      entityType: 'artifact',
      entityId: id,
    });
    return tags;
  });
}

/** Pins or unpins an output (pinned ones lead the queue); the same value again changes nothing. */
export async function setPinned(db: Db, clock: Clock, id: string, pinned: unknown, asUserId?: string): Promise<boolean> {
  if (typeof pinned !== 'boolean') throw invalid('pinned', 'must be true or false');
  return inTransaction(db, async (trx) => {
    const actor = await resolveActor(trx, asUserId);
    const row = await existing(trx, id);
    if ((row.pinned === 1) === pinned) return pinned;
    await updateArtifact(trx, id, { pinned: pinned ? 1 : 0, updatedAt: clock.now().toISOString() });
    await recordActivity(trx, clock, {
      kind: pinned ? 'artifact.pinned' : 'artifact.unpinned',
      detail: `${pinned ? 'Pinned' : 'Unpinned'} output: ${row.title}`,
      actor,
      entityType: 'artifact',
      entityId: id,
    });
    return pinned;
  });
}
