import type { Trx } from '../../../db/transactions';
import { inTransaction } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { newId } from '../../core/ids';
import { afterKey, pageRequest, toPage } from '../../core/lists';
import type { Actor } from '../activity/activity';
import { emit } from '../events/outbox';
import { resolveActor } from '../members/resolve-actor';
import { checkText, MAX_NOTE_CHARS, NOTE_LIST } from './rules';
import { changeStatus, type TaskDeps } from './task-crud';
import { getTaskRow, insertTaskNote, readTaskDetail, taskActivity, touchTask, type TaskDetail, type TaskRow } from './task-store';

/** An operator note: authoritative direction for the next AI cycle. */
export interface TaskNote {
  id: string;
  taskId: string;
  text: string;
  /** The member who wrote it (the owner unless asUserId said otherwise); null once that member is removed. */
  authorUserId: string | null;
  authorName: string | null;
  /** @format date-time */
  createdAt: string;
}

export interface TaskNoteList {
  notes: TaskNote[];
  nextCursor: string | null;
}

export interface PostedNote {
  note: TaskNote;
  task: TaskDetail;
}

/** Writes a note (activity `task.note_added`, event `task.note_added`); a needs_input task moves to queued. */
async function addNote(trx: Trx, clock: Clock, actor: Actor & { userId: string }, row: TaskRow, text: string, promote: boolean): Promise<string> {
  const id = newId('tno', clock);
  const now = clock.now().toISOString();
  await insertTaskNote(trx, { id, taskId: row.id, text, authorUserId: actor.userId, createdAt: now });
  await touchTask(trx, row.id, now);
  await taskActivity(trx, clock, actor, row, 'task.note_added', `Note on ${row.title}`);
  await emit(trx, clock, 'task.note_added', { taskId: row.id, title: row.title, noteId: id, text });
  if (promote && row.status === 'needs_input') await changeStatus(trx, clock, actor, row, 'queued', 'note');
  return id;
}

/** Operator notes (newest first) and renew. */
export class TaskNotes {
  constructor(private readonly d: TaskDeps) {}

  async list(taskId: string, query: { limit?: number; cursor?: string } = {}): Promise<TaskNoteList> {
    const { db } = this.d;
    await getTaskRow(db, taskId);
    const { limit, after } = pageRequest(NOTE_LIST, query, ['string', 'string']);
    let q = db
      .selectFrom('taskNotes')
      .leftJoin('users', 'users.id', 'taskNotes.authorUserId')
      .select(['taskNotes.id', 'taskNotes.taskId', 'taskNotes.text', 'taskNotes.authorUserId', 'users.name as authorName', 'taskNotes.createdAt'])
      .where('taskNotes.taskId', '=', taskId);
    if (after) q = q.where(afterKey(['task_notes.created_at', 'task_notes.id'], after, 'desc'));
    const rows = await q.orderBy('taskNotes.createdAt', 'desc').orderBy('taskNotes.id', 'desc').limit(limit + 1).execute();
    const page = toPage(rows, limit, (r) => [r.createdAt, r.id]);
    return { notes: page.rows, nextCursor: page.nextCursor };
  }

  /** POST a note (1-600 characters); on a needs_input task the task moves to queued (cause `note`). */
  async post(taskId: string, textIn: unknown, asUserId?: string): Promise<PostedNote> {
    const text = checkText('text', textIn, MAX_NOTE_CHARS);
    const { db, clock } = this.d;
    const noteId = await inTransaction(db, async (trx) => {
      const actor = await resolveActor(trx, asUserId);
      const row = await getTaskRow(trx, taskId);
      return addNote(trx, clock, actor, row, text, true);
    });
    return { note: await this.note(noteId), task: await readTaskDetail(db, taskId) };
  }

  /**
   * Renew: bumps updatedAt and clears the archive warning, status unchanged (activity and event
   * `task.renewed`); an optional note (1-600 characters) is recorded as an operator note.
   */
  async renew(taskId: string, noteIn?: unknown): Promise<TaskDetail> {
    const note = noteIn === undefined || noteIn === null ? null : checkText('note', noteIn, MAX_NOTE_CHARS);
    const { db, clock } = this.d;
    await inTransaction(db, async (trx) => {
      const actor = await resolveActor(trx);
      const row = await getTaskRow(trx, taskId);
      await touchTask(trx, taskId, clock.now().toISOString());
      await taskActivity(trx, clock, actor, row, 'task.renewed', `${row.title} renewed${row.archiveWarnedAt ? ' (archive warning cleared)' : ''}`);
      await emit(trx, clock, 'task.renewed', { taskId, title: row.title });
      if (note !== null) await addNote(trx, clock, actor, row, note, false);
    });
    return readTaskDetail(db, taskId);
  }

  private async note(id: string): Promise<TaskNote> {
    return this.d.db
      .selectFrom('taskNotes')
      .leftJoin('users', 'users.id', 'taskNotes.authorUserId')
      .select(['taskNotes.id', 'taskNotes.taskId', 'taskNotes.text', 'taskNotes.authorUserId', 'users.name as authorName', 'taskNotes.createdAt'])
      .where('taskNotes.id', '=', id)
      .executeTakeFirstOrThrow();
  }
}
