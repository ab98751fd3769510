import { sql, type Insertable, type Updateable } from 'kysely';
import type { ArtifactTable } from '../../../db/schema';
import type { Trx } from '../../../db/transactions';

/** The one writer of the artifacts and artifact_tags tables (outputs and their tags). */

/** Inserts whole output rows as given (a cycle's drafts, the bench and fixtures), one statement. */
export async function insertArtifactRows(trx: Trx, rows: Insertable<ArtifactTable>[]): Promise<void> {
  await trx.insertInto('artifacts').values(rows).execute();
}

/** Inserts tag rows of new outputs, one statement. */
export async function insertArtifactTagRows(trx: Trx, rows: { artifactId: string; tag: string }[]): Promise<void> {
  await trx.insertInto('artifactTags').values(rows).execute();
}

export async function replaceArtifactTags(trx: Trx, artifactId: string, tags: readonly string[]): Promise<void> {
  await trx.deleteFrom('artifactTags').where('artifactId', '=', artifactId).execute();
  if (tags.length) await insertArtifactTagRows(trx, tags.map((tag) => ({ artifactId, tag })));
}

/** Renames a tag on every output: outputs carrying both first lose `from` (merged), the rest are renamed. */
export async function renameArtifactTag(trx: Trx, from: string, to: string): Promise<{ renamed: number; merged: number }> {
  const merged = await sql`DELETE FROM artifact_tags WHERE tag = ${from} AND artifact_id IN (SELECT artifact_id FROM artifact_tags WHERE tag = ${to})`.execute(trx);
  const renamed = await sql`UPDATE artifact_tags SET tag = ${to} WHERE tag = ${from}`.execute(trx);
  return { renamed: Number(renamed.numAffectedRows ?? 0), merged: Number(merged.numAffectedRows ?? 0) };
}

/** Sets columns of one output. */
export async function updateArtifact(trx: Trx, id: string, change: Updateable<ArtifactTable>): Promise<void> {
  await trx.updateTable('artifacts').set(change).where('id', '=', id).execute();
}

/** Decides outputs still waiting (ready, not superseded): decidedAt is stamped once and never rewritten. */
export async function decideReadyArtifacts(trx: Trx, ids: string[], to: 'approved' | 'archived', decidedAt: string): Promise<void> {
  await trx
    .updateTable('artifacts')
    .set({ status: to, decidedAt, updatedAt: decidedAt })
    .where('id', 'in', ids)
    .where('status', '=', 'ready')
    .where('supersededAt', 'is', null)
    .execute();
}

/**
 * Marks the ready versions that `byId` replaces as superseded (out of the queue, still in the
 * chain): its parent, and every other version of the same task still waiting. Answers them.
 */
export async function supersedeReadyVersions(
  trx: Trx,
  byId: string,
  scope: { taskId: string | null; parentArtifactId: string | null },
  at: string,
): Promise<{ id: string; taskId: string | null; title: string }[]> {
  let q = trx
    .selectFrom('artifacts')
    .select(['id', 'taskId', 'title'])
    .where('status', '=', 'ready')
    .where('supersededAt', 'is', null)
    .where('id', '!=', byId);
  const { taskId, parentArtifactId } = scope;
  if (taskId === null && parentArtifactId === null) return [];
  q = q.where((eb) => {
    const ors = [];
    if (taskId !== null) ors.push(eb('taskId', '=', taskId));
    if (parentArtifactId !== null) ors.push(eb('id', '=', parentArtifactId));
    return eb.or(ors);
  });
  const rows = await q.execute();
  if (rows.length) {
    await trx
      .updateTable('artifacts')
      .set({ supersededAt: at, supersededById: byId, updatedAt: at })
      .where('id', 'in', rows.map((r) => r.id))
      .execute();
  }
  return rows;
}
