import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import { inTransaction } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { conflict, invalid, notFound } from '../../core/errors';
import { newId } from '../../core/ids';
import { afterKey, pageRequest, toPage, type Page } from '../../core/lists';
import { parseIso } from '../../core/workspace-time';
import { recordActivity } from '../activity/activity';
import { emit } from '../events/outbox';
import { resolveActor } from '../members/resolve-actor';
import { checkEmoji, REACTION_EMOJIS, type ReactionEmoji, type ReactionSummary } from '../reactions/reactions';
import type { WorkspaceService } from '../workspace/workspace-service';
import {
  checkCommentQuery,
  checkCommentText,
  checkSinceLookback,
  hueOf,
  initialsOf,
  MAX_COMMENTS_PER_TASK,
  mentionedMembers,
  MENTION_LIST,
  TOP_REACTED_COMMENTS,
} from './comment-rules';
import { reactionSummaries, toggleReactionRow } from '../reactions/reaction-store';
import { foldAccents, matchingRefs, queryWords, wordsMatch } from '../search/fts';
import { acknowledgeMention, insertCommentRows, insertMention } from './comment-store';

/** What a removed member's comments show as their author. */
export const REMOVED_MEMBER_NAME = 'Removed member';

export interface TaskComment {
  id: string;
  taskId: string;
  /** The top-level comment this one replies to; null for a top-level comment. */
  parentCommentId: string | null;
  text: string;
  authorId: string;
  authorName: string;
  /** One or two letters of the author's name, upper-cased. */
  authorInitials: string;
  /** The author's colour hue (0-359), fixed by their id. @isInt */
  authorHue: number;
  /** Members the text mentions as `@name`. */
  mentionedUserIds: string[];
  /** One entry per emoji that has at least one reaction, in the order 👍 👀 🎯 ❤️ 🚀. */
  reactions: ReactionSummary[];
  createdAt: string;
}

export interface CommentAuthor {
  userId: string;
  name: string;
  authorInitials: string;
  /** @isInt */
  authorHue: number;
  /** Comments this member wrote on the task (all of them, whatever the filters). @isInt */
  commentCount: number;
}

export interface TaskCommentList {
  /** The threads of the matches, oldest thread first; each reply right after its parent. */
  comments: TaskComment[];
  /** All comments of the task. @isInt */
  total: number;
  /** Matched comments plus the replies attached to matched comments (equal to total without filters). @isInt */
  filtered: number;
  /** Comments that meet every filter given (empty when no filter is given). */
  matchedIds: string[];
  /** The search text applied (trimmed), or null. */
  query: string | null;
  authorId: string | null;
  /** The `since` applied, as an ISO instant, or null. */
  since: string | null;
  /** Every member who commented on the task, by name. */
  authors: CommentAuthor[];
}

export interface CommentListQuery {
  q?: string;
  authorId?: string;
  since?: string;
  asUserId?: string;
}

export interface CommentReactionResult {
  commentId: string;
  emoji: ReactionEmoji;
  /** true when this call added the reaction, false when it removed it. */
  reacted: boolean;
  reactions: ReactionSummary[];
}

export interface TopReactedComment {
  commentId: string;
  text: string;
  authorId: string;
  authorName: string;
  authorInitials: string;
  /** @isInt */
  authorHue: number;
  /** @isInt */
  reactionCount: number;
}

export interface TaskEngagement {
  /** @isInt */
  commentCount: number;
  /** @isInt */
  totalReactions: number;
  /** The emoji used most on the task's comments (ties: the set's order 👍 👀 🎯 ❤️ 🚀); null without reactions. */
  topEmoji: ReactionEmoji | null;
  /** Every emoji of the set with its count on the task's comments (zeros included). */
  reactionTotals: Record<ReactionEmoji, number>;
  /** Up to 5 comments with the most reactions (at least one), most first, then oldest first. */
  topReactedComments: TopReactedComment[];
}

export interface Mention {
  id: string;
  commentId: string;
  taskId: string;
  /** The member mentioned. */
  userId: string;
  /** Who wrote the comment. */
  authorId: string;
  text: string;
  acknowledgedAt: string | null;
  createdAt: string;
}

/** A comment as a row of the task timeline (the tasks area merges these with its own items). */
export interface CommentTimelineItem {
  at: string;
  commentId: string;
  parentCommentId: string | null;
  authorId: string;
  authorName: string;
  text: string;
}

interface CommentRow {
  id: string;
  taskId: string;
  parentCommentId: string | null;
  authorUserId: string;
  text: string;
  createdAt: string;
  authorName: string | null;
}

const author = (row: { authorUserId: string; authorName: string | null }) => {
  const name = row.authorName ?? REMOVED_MEMBER_NAME;
  return { authorId: row.authorUserId, authorName: name, authorInitials: initialsOf(name), authorHue: hueOf(row.authorUserId) };
};

function selectComments(db: Db) {
  return db
    .selectFrom('taskComments')
    .leftJoin('users', 'users.id', 'taskComments.authorUserId')
    .select([
      'taskComments.id',
      'taskComments.taskId',
      'taskComments.parentCommentId',
      'taskComments.authorUserId',
      'taskComments.text',
      'taskComments.createdAt',
      'users.name as authorName',
    ]);
}

/** Every comment of a task, oldest first (at most MAX_COMMENTS_PER_TASK, from the (task_id, created_at) index). */
async function commentsOf(db: Db, taskId: string): Promise<CommentRow[]> {
  return selectComments(db).where('taskComments.taskId', '=', taskId).orderBy('taskComments.createdAt').orderBy('taskComments.id').execute();
}

async function taskTitle(db: Db, taskId: string): Promise<string> {
  const task = await db.selectFrom('tasks').select('title').where('id', '=', taskId).executeTakeFirst();
  if (!task) throw notFound('task', taskId);
  return task.title;
}

const excerpt = (text: string, max = 80) => (Array.from(text).length <= max ? text : `${Array.from(text).slice(0, max - 1).join('')}…`);

/** A mention with the comment it sits in: the one row shape of the mention list and its ack. */
function selectMentions(db: Db) {
  return db
    .selectFrom('commentMentions')
    .innerJoin('taskComments', 'taskComments.id', 'commentMentions.commentId')
    .select([
      'commentMentions.id',
      'commentMentions.commentId',
      'taskComments.taskId',
      'commentMentions.userId',
      'taskComments.authorUserId as authorId',
      'taskComments.text',
      'commentMentions.acknowledgedAt',
      'commentMentions.createdAt',
    ]);
}

/**
 * The comments of a task whose body matches `q` through the search index, and a test of an author
 * name by the same rule (every word of q is a word of the name, the last one as its start; case
 * and accents ignored). A q without a word matches nothing.
 */
async function commentsMatching(db: Db, taskId: string, q: string): Promise<{ bodies: Set<string>; name: (name: string) => boolean }> {
  const words = queryWords(q);
  const refs = matchingRefs('comment', words, taskId);
  if (refs === null) return { bodies: new Set(), name: () => false };
  const { rows } = await sql<{ ref: string }>`SELECT ref FROM ${refs} AS m`.execute(db);
  const folded = words.map(foldAccents);
  return { bodies: new Set(rows.map((r) => r.ref)), name: (name) => wordsMatch(folded, queryWords(foldAccents(name))) };
}

/** Task comments: threads, `@name` mentions, reactions, search, engagement. */
export class CommentService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly workspace: WorkspaceService,
  ) {}

  /**
   * A task's comments, filtered: q (words of the body, through the search index, or of the author name), authorId and since
   * intersect. A matched top-level comment comes with all its replies; a matched reply comes with
   * its parent (shown for context; counted in `filtered` only if it matches itself).
   */
  async list(taskId: string, query: CommentListQuery): Promise<TaskCommentList> {
    const q = checkCommentQuery(query.q);
    const since = query.since === undefined ? null : checkSinceLookback(parseIso('since', query.since, (await this.workspace.profile()).timezone), this.clock.now());
    const viewer = await resolveActor(this.db, query.asUserId);
    await taskTitle(this.db, taskId);
    const rows = await commentsOf(this.db, taskId);
    const authorId = query.authorId ?? null;
    const anyFilter = q !== null || authorId !== null || since !== null;
    const textMatches = q === null ? null : await commentsMatching(this.db, taskId, q);
    const matches = (r: CommentRow) =>
      (textMatches === null || textMatches.bodies.has(r.id) || textMatches.name(author(r).authorName)) &&
      (authorId === null || r.authorUserId === authorId) &&
      (since === null || r.createdAt >= since.toISOString());
    const matched = new Set(anyFilter ? rows.filter(matches).map((r) => r.id) : rows.map((r) => r.id));
    const counted = new Set(matched);
    for (const r of rows) if (r.parentCommentId !== null && matched.has(r.parentCommentId)) counted.add(r.id);
    const shown = new Set(counted);
    for (const r of rows) if (matched.has(r.id) && r.parentCommentId !== null) shown.add(r.parentCommentId);
    // Threads in order: each top-level comment, then its replies (both oldest first).
    const ordered: CommentRow[] = [];
    const repliesOf = new Map<string, CommentRow[]>();
    for (const r of rows) if (r.parentCommentId !== null) repliesOf.set(r.parentCommentId, [...(repliesOf.get(r.parentCommentId) ?? []), r]);
    for (const r of rows) {
      if (r.parentCommentId !== null) continue;
      if (shown.has(r.id)) ordered.push(r);
      for (const reply of repliesOf.get(r.id) ?? []) if (shown.has(reply.id)) ordered.push(reply);
    }
    const authors = new Map<string, CommentAuthor>();
    for (const r of rows) {
      const a = author(r);
      const entry = authors.get(a.authorId) ?? { userId: a.authorId, name: a.authorName, authorInitials: a.authorInitials, authorHue: a.authorHue, commentCount: 0 };
      entry.commentCount += 1;
      authors.set(a.authorId, entry);
    }
    return {
      comments: await this.toComments(this.db, ordered, viewer.userId),
      total: rows.length,
      filtered: counted.size,
      matchedIds: anyFilter ? rows.filter((r) => matched.has(r.id)).map((r) => r.id) : [],
      query: q,
      authorId,
      since: since === null ? null : since.toISOString(),
      authors: [...authors.values()].sort((a, b) => a.name.localeCompare(b.name, 'en') || a.userId.localeCompare(b.userId)),
    };
  }

  /**
   * Posts a comment (author: asUserId, else the owner). A reply names a comment of the same task;
   * a reply to a reply joins that reply's thread (its parent becomes the thread's top-level
   * comment), so threads are one level deep. Members named as `@name` get a mention each.
   */
  async post(taskId: string, input: { text: unknown; asUserId?: string; parentCommentId?: string }): Promise<TaskComment> {
    const text = checkCommentText(input.text);
    return inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx, input.asUserId);
      const title = await taskTitle(trx, taskId);
      let parentCommentId: string | null = null;
      if (input.parentCommentId !== undefined) {
        const parent = await trx.selectFrom('taskComments').select(['id', 'parentCommentId']).where('id', '=', input.parentCommentId).where('taskId', '=', taskId).executeTakeFirst();
        if (!parent) throw invalid('parentCommentId', 'is not a comment of this task');
        parentCommentId = parent.parentCommentId ?? parent.id;
      }
      const { count } = await trx.selectFrom('taskComments').select((eb) => eb.fn.countAll<number>().as('count')).where('taskId', '=', taskId).executeTakeFirstOrThrow();
      if (Number(count) >= MAX_COMMENTS_PER_TASK) throw conflict('limit_reached', `A task holds at most ${MAX_COMMENTS_PER_TASK} comments`);
      const now = this.clock.now().toISOString();
      const id = newId('cmt', this.clock);
      await insertCommentRows(trx, [{ id, taskId, parentCommentId, authorUserId: actor.userId, text, createdAt: now }]);
      const members = await trx.selectFrom('users').select(['id', 'name']).where('removedAt', 'is', null).execute(); // a removed member is no longer mentionable
      const mentioned = mentionedMembers(text, members);
      for (const userId of mentioned) {
        await insertMention(trx, { id: newId('mnt', this.clock), commentId: id, userId, acknowledgedAt: null, createdAt: now });
      }
      await recordActivity(trx, this.clock, {
        kind: 'comment.created',
        detail: `${parentCommentId === null ? 'Commented' : 'Replied'} on task: ${title}`,
        actor,
        entityType: 'comment',
        entityId: id,
      });
      await emit(trx, this.clock, 'comment.created', { commentId: id, taskId, parentCommentId, authorUserId: actor.userId, mentionedUserIds: mentioned });
      const [row] = await selectComments(trx).where('taskComments.id', '=', id).execute();
      return (await this.toComments(trx, [row], actor.userId))[0];
    });
  }

  /** Toggles one member's reaction on a comment of the task: a second identical call removes it. */
  async toggleReaction(taskId: string, commentId: string, emojiInput: string, asUserId?: string): Promise<CommentReactionResult> {
    const emoji = checkEmoji(emojiInput);
    return inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx, asUserId);
      const title = await taskTitle(trx, taskId);
      const comment = await trx.selectFrom('taskComments').select('id').where('id', '=', commentId).where('taskId', '=', taskId).executeTakeFirst();
      if (!comment) throw notFound('comment', commentId);
      const { reacted, reactions } = await toggleReactionRow(trx, this.clock, 'comment', commentId, actor.userId, emoji);
      const removed = !reacted;
      await recordActivity(trx, this.clock, {
        kind: removed ? 'comment.reaction_removed' : 'comment.reaction_added',
        detail: `${removed ? 'Removed' : 'Added'} ${emoji} on a comment of task: ${title}`,
        actor,
        entityType: 'comment',
        entityId: commentId,
      });
      return { commentId, emoji, reacted, reactions };
    });
  }

  /** Comment and reaction figures of a task. */
  async engagement(taskId: string): Promise<TaskEngagement> {
    await taskTitle(this.db, taskId);
    const rows = await commentsOf(this.db, taskId);
    const reactions = await this.db
      .selectFrom('commentReactions')
      .innerJoin('taskComments', 'taskComments.id', 'commentReactions.commentId')
      .select(['commentReactions.commentId', 'commentReactions.emoji'])
      .where('taskComments.taskId', '=', taskId)
      .execute();
    const reactionTotals = Object.fromEntries(REACTION_EMOJIS.map((e) => [e, 0])) as Record<ReactionEmoji, number>;
    const perComment = new Map<string, number>();
    for (const r of reactions) {
      reactionTotals[r.emoji] += 1;
      perComment.set(r.commentId, (perComment.get(r.commentId) ?? 0) + 1);
    }
    let topEmoji: ReactionEmoji | null = null;
    for (const e of REACTION_EMOJIS) if (reactionTotals[e] > 0 && (topEmoji === null || reactionTotals[e] > reactionTotals[topEmoji])) topEmoji = e;
    const topReactedComments = rows
      .filter((r) => (perComment.get(r.id) ?? 0) > 0)
      .sort((a, b) => (perComment.get(b.id) ?? 0) - (perComment.get(a.id) ?? 0) || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
      .slice(0, TOP_REACTED_COMMENTS)
      .map((r) => {
        const a = author(r);
        return { commentId: r.id, text: excerpt(r.text), ...a, reactionCount: perComment.get(r.id) ?? 0 };
      });
    return { commentCount: rows.length, totalReactions: reactions.length, topEmoji, reactionTotals, topReactedComments };
  }

  /** A member's unacknowledged mentions (userId, else the owner), newest first. */
  async listMentions(query: { userId?: string; limit?: number; cursor?: string }): Promise<Page<Mention>> {
    const { limit, after } = pageRequest(MENTION_LIST, query, ['string', 'string']);
    const member = await resolveActor(this.db, query.userId, 'userId');
    let select = selectMentions(this.db)
      .where('commentMentions.userId', '=', member.userId)
      .where('commentMentions.acknowledgedAt', 'is', null);
    if (after) select = select.where(afterKey(['comment_mentions.created_at', 'comment_mentions.id'], after, 'desc'));
    const rows = await select.orderBy('commentMentions.createdAt', 'desc').orderBy('commentMentions.id', 'desc').limit(limit + 1).execute();
    return toPage(rows, limit, (r) => [r.createdAt, r.id]);
  }

  /** Acknowledges a mention (once: acknowledging it again changes nothing and answers the same). */
  async acknowledgeMention(mentionId: string, asUserId?: string): Promise<Mention> {
    return inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx, asUserId);
      const read = () =>
        selectMentions(trx)
          .where('commentMentions.id', '=', mentionId)
          .executeTakeFirst();
      const mention = await read();
      if (!mention) throw notFound('mention', mentionId);
      if (mention.acknowledgedAt !== null) return mention;
      const acknowledgedAt = this.clock.now().toISOString();
      await acknowledgeMention(trx, mentionId, acknowledgedAt);
      await recordActivity(trx, this.clock, { kind: 'mention.acknowledged', detail: 'Acknowledged a mention', actor, entityType: 'mention', entityId: mentionId });
      await emit(trx, this.clock, 'mention.acknowledged', { mentionId, commentId: mention.commentId, taskId: mention.taskId, userId: mention.userId });
      return { ...mention, acknowledgedAt };
    });
  }

  private async toComments(db: Db, rows: CommentRow[], viewerId: string): Promise<TaskComment[]> {
    const ids = rows.map((r) => r.id);
    // A task's comments are at most MAX_COMMENTS_PER_TASK: one IN list each, within SQLite's variable limit.
    const reactions = await reactionSummaries(db, 'comment', ids, viewerId);
    const mentions = new Map<string, string[]>();
    if (ids.length > 0) {
      for (const m of await db.selectFrom('commentMentions').select(['commentId', 'userId']).where('commentId', 'in', ids).orderBy('id').execute()) {
        mentions.set(m.commentId, [...(mentions.get(m.commentId) ?? []), m.userId]);
      }
    }
    return rows.map((r) => ({
      id: r.id,
      taskId: r.taskId,
      parentCommentId: r.parentCommentId,
      text: r.text,
      ...author(r),
      mentionedUserIds: mentions.get(r.id) ?? [],
      reactions: reactions.get(r.id) ?? [],
      createdAt: r.createdAt,
    }));
  }
}

/** A task's comments as timeline rows, oldest first: for the task timeline and the public timeline page. */
export async function commentTimelineItems(db: Db, taskId: string): Promise<CommentTimelineItem[]> {
  return (await commentsOf(db, taskId)).map((r) => {
    const a = author(r);
    return { at: r.createdAt, commentId: r.id, parentCommentId: r.parentCommentId, authorId: a.authorId, authorName: a.authorName, text: r.text };
  });
}
