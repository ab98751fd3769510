import type { Db } from '../../../db/connection';
import { inTransaction, type Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { conflict, invalid, notFound } from '../../core/errors';
import { newId } from '../../core/ids';
import { recordActivity } from '../activity/activity';
import { emit } from '../events/outbox';
import { resolveActor, type MemberActor } from '../members/resolve-actor';
import { REVIEWER_ROLES, roleNotPermitted } from '../members/rules';
import { insertArtifactRows, insertArtifactTagRows, supersedeReadyVersions } from './artifact-store';
import { ARTIFACT_CONTENT, ARTIFACT_TITLE } from './rules';

/**
 * Versions written by a member: an edit of the version waiting for review, and the reopening of a
 * decided output. Both make a NEW version (parentArtifactId = the one they start from, authored by
 * the member) and leave the one they start from as it was, except that a ready version replaced
 * by a newer one is marked superseded (out of the queue, still in the chain). The same marking
 * runs when a cycle writes a new version (`supersedeOlder`, called by the loop's apply).
 */

/** Marks the ready versions `newVersion` replaces as superseded, with one event each. */
export async function supersedeOlder(
  trx: Trx,
  clock: Clock,
  newVersion: { id: string; taskId: string | null; parentArtifactId: string | null },
): Promise<string[]> {
  const at = clock.now().toISOString();
  const replaced = await supersedeReadyVersions(trx, newVersion.id, newVersion, at);
  for (const r of replaced) {
    await emit(trx, clock, 'artifact.superseded', { artifactId: r.id, supersededById: newVersion.id, taskId: r.taskId, title: r.title, supersededAt: at });
  }
  return replaced.map((r) => r.id);
}

export interface ArtifactEditInput {
  content?: unknown;
  title?: unknown;
}

function checkText(field: string, value: unknown, bounds: { min: number; max: number }): string {
  if (typeof value !== 'string') throw invalid(field, 'must be a string');
  const trimmed = value.trim();
  if (trimmed.length < bounds.min) throw invalid(field, 'must not be empty');
  if (value.length > bounds.max) throw invalid(field, `must be at most ${bounds.max.toLocaleString('en-US')} characters`);
  return field === 'title' ? trimmed : value;
}

/** The edit as given: content required, title optional (the edited version's title otherwise). */
export function checkEdit(input: ArtifactEditInput): { content: string; title?: string } {
  const content = checkText('content', input.content, ARTIFACT_CONTENT);
  const title = input.title === undefined ? undefined : checkText('title', input.title, ARTIFACT_TITLE);
  return { content, ...(title === undefined ? {} : { title }) };
}

function requireWriter(actor: MemberActor): void {
  if (!REVIEWER_ROLES.includes(actor.role)) throw roleNotPermitted('asUserId', actor.role, 'only owners, admins and editors may edit or reopen outputs');
}

async function versionOf(trx: Trx, id: string) {
  const row = await trx
    .selectFrom('artifacts')
    .select(['id', 'taskId', 'runId', 'kind', 'title', 'content', 'status', 'version', 'sourceSignalIds', 'sourceMemoryIds', 'readyAt', 'createdAt', 'supersededById'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('artifact', id);
  return row;
}
type VersionRow = Awaited<ReturnType<typeof versionOf>>;

/** The next version number of the output: one past the highest of its task's versions (or of this one). */
async function nextVersion(trx: Trx, from: VersionRow): Promise<number> {
  if (from.taskId === null) return from.version + 1;
  const top = await trx.selectFrom('artifacts').select((eb) => eb.fn.max('version').as('v')).where('taskId', '=', from.taskId).executeTakeFirst();
  return Math.max(Number(top?.v ?? 0), from.version) + 1;
}

async function writeVersion(
  trx: Trx,
  clock: Clock,
  from: VersionRow,
  change: { title: string; content: string; readyAt: string },
  actor: MemberActor,
  how: 'edited' | 'reopened',
): Promise<string> {
  const now = clock.now().toISOString();
  const id = newId('art', clock);
  const version = await nextVersion(trx, from);
  await insertArtifactRows(trx, [
    {
      id,
      taskId: from.taskId,
      runId: null,
      parentArtifactId: from.id,
      version,
      kind: from.kind,
      title: change.title,
      content: change.content,
      status: 'ready',
      sourceSignalIds: from.sourceSignalIds,
      sourceMemoryIds: from.sourceMemoryIds,
      readyAt: change.readyAt,
      decidedAt: null,
      createdAt: now,
      updatedAt: now,
      authorKind: 'member',
      authorUserId: actor.userId,
    },
  ]);
  const tags = await trx.selectFrom('artifactTags').select('tag').where('artifactId', '=', from.id).execute();
  if (tags.length) await insertArtifactTagRows(trx, tags.map((t) => ({ artifactId: id, tag: t.tag })));
  await supersedeOlder(trx, clock, { id, taskId: from.taskId, parentArtifactId: from.id });
  await recordActivity(trx, clock, {
    kind: how === 'edited' ? 'artifact.edited' : 'artifact.reopened',
    detail: how === 'edited' ? `Edited output "${change.title}": version ${version} waits for review` : `Reopened output "${change.title}" as version ${version} for review`,
    actor,
    entityType: 'artifact',
    entityId: id,
  });
  const base = { artifactId: id, taskId: from.taskId, runId: null, title: change.title, kind: from.kind, version };
  await emit(trx, clock, 'artifact.created', { ...base, parentArtifactId: from.id, authorKind: 'member', authorUserId: actor.userId });
  await emit(trx, clock, 'artifact.ready', { ...base, readyAt: change.readyAt });
  return id;
}

/**
 * Saves an edited body as a new version authored by the member. Only the version waiting for
 * review can be edited: a decided one answers 409 `artifact_decided` (reopen it first), a replaced
 * one 409 `artifact_superseded` naming the newer version. The review clock carries over (readyAt
 * is never reset by edits). The same title and content again writes nothing: answers null.
 */
export async function editArtifact(db: Db, clock: Clock, id: string, input: ArtifactEditInput, asUserId?: string): Promise<string | null> {
  const edit = checkEdit(input);
  return inTransaction(db, async (trx) => {
    const actor = await resolveActor(trx, asUserId);
    requireWriter(actor);
    const from = await versionOf(trx, id);
    if (from.status !== 'ready') throw conflict('artifact_decided', `Output ${id} is already ${from.status}; reopen it to write a new version`);
    if (from.supersededById !== null) throw conflict('artifact_superseded', `A newer version of this output (${from.supersededById}) replaced it; edit that one`);
    const title = edit.title ?? from.title;
    if (title === from.title && edit.content === from.content) return null;
    return writeVersion(trx, clock, from, { title, content: edit.content, readyAt: from.readyAt }, actor, 'edited');
  });
}

/**
 * Reopens an approved or archived output: a new ready version with its title and content, whose
 * review starts now. The decided version keeps its status and decidedAt. Any other version of
 * the output still waiting is superseded by the new one. A ready output answers 409
 * `artifact_not_decided`.
 */
export async function reopenArtifact(db: Db, clock: Clock, id: string, asUserId?: string): Promise<string> {
  return inTransaction(db, async (trx) => {
    const actor = await resolveActor(trx, asUserId);
    requireWriter(actor);
    const from = await versionOf(trx, id);
    if (from.status === 'ready') throw conflict('artifact_not_decided', `Output ${id} is still waiting for review; only approved or archived outputs can be reopened`);
    return writeVersion(trx, clock, from, { title: from.title, content: from.content, readyAt: clock.now().toISOString() }, actor, 'reopened');
  });
}
