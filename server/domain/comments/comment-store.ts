import type { Insertable } from 'kysely';
import type { CommentMentionTable, TaskCommentTable } from '../../../db/schema';
import type { Trx } from '../../../db/transactions';

/** The one writer of the task_comments and comment_mentions tables. */

/** Inserts comment rows (one new comment, or the bench's with explicit ids and times), one statement. */
export async function insertCommentRows(trx: Trx, rows: Insertable<TaskCommentTable>[]): Promise<void> {
  await trx.insertInto('taskComments').values(rows).execute();
}

export async function insertMention(trx: Trx, row: Insertable<CommentMentionTable>): Promise<void> {
  await trx.insertInto('commentMentions').values(row).execute();
}

export async function acknowledgeMention(trx: Trx, id: string, acknowledgedAt: string): Promise<void> {
  await trx.updateTable('commentMentions').set({ acknowledgedAt }).where('id', '=', id).execute();
}
