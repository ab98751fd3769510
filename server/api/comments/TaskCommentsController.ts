import { Body, Controller, Get, Path, Post, Query, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { CommentReactionResult, TaskComment, TaskCommentList, TaskEngagement } from '../../domain/comments/comment-service';
import type { ReactionEmoji } from '../../domain/reactions/reactions';
import type { Services } from '../../services';

export interface NewCommentBody {
  /**
   * 1-4000 characters (trimmed). A member named as `@name` (their name, any case; the longest
   * fitting name wins; not inside a word or an email address) gets a mention to acknowledge.
   */
  text: string;
  /** The author; defaults to the workspace owner. */
  asUserId?: string;
  /**
   * Reply into this comment's thread: a comment of the same task. Threads are one level deep: a
   * reply to a reply is stored as a reply to its thread's top-level comment.
   */
  parentCommentId?: string;
}

export interface CommentReactionBody {
  emoji: ReactionEmoji;
  /** The member reacting; defaults to the workspace owner. */
  asUserId?: string;
}

/** Comments on tasks: threads, mentions, reactions, search and engagement. */
@Route('api/v1/tasks')
@Tags('Task comments')
@Security('bearer')
export class TaskCommentsController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * A task's comments, as threads (oldest first; each reply right after its top-level comment).
   * Filters intersect: `q` matches the body or the author's name by words, as GET /search does
   * (every word of `q` is a word of the body, or of the name, the last one also as the start of a
   * word; case and accents ignored; a `q` without letters or digits matches nothing),
   * `authorId` the author, `since` the creation time. A matched top-level comment comes with all
   * its replies; a matched reply comes with its parent. `matchedIds` lists the comments that meet
   * every filter given (empty without filters); `filtered` counts them plus the replies attached to
   * matched comments (without filters it equals `total`). `authors` lists every member who
   * commented on the task. A task holds at most 1000 comments, served whole.
   * @param q 0-200 characters (trimmed; empty means no search)
   * @param authorId only comments by this member (an unknown id matches nothing)
   * @param since ISO time, at most 365 days back; only comments created at or after it (a date alone is the start of that workspace-timezone day)
   * @param asUserId the member whose `reacted` flags are shown; defaults to the owner
   */
  @Get('{id}/comments')
  @Response<ErrorBody>('404', 'No such task')
  @Response<ErrorBody>('422', 'q is longer than 200 characters, since is not ISO or more than 365 days back, or asUserId is not a member')
  public async listTaskComments(@Path() id: string, @Query() q?: string, @Query() authorId?: string, @Query() since?: string, @Query() asUserId?: string): Promise<TaskCommentList> {
    return this.s.comments.list(id, { q, authorId, since, asUserId });
  }

  /**
   * Posts a comment (or a reply, with parentCommentId); the author defaults to the workspace owner.
   * Logged as `comment.created`; emits `comment.created` with the members it mentions.
   */
  @Post('{id}/comments')
  @SuccessResponse('201', 'Created')
  @Response<ErrorBody>('404', 'No such task')
  @Response<ErrorBody>('409', 'The task already holds 1000 comments (limit_reached)')
  @Response<ErrorBody>('422', 'text is empty or longer than 4000 characters, parentCommentId is not a comment of this task, or asUserId is not a member; nothing was created')
  public async postTaskComment(@Path() id: string, @Body() body: NewCommentBody): Promise<TaskComment> {
    const comment = await this.s.comments.post(id, body);
    this.setStatus(201);
    return comment;
  }

  /**
   * Toggles a reaction (👍 👀 🎯 ❤️ 🚀) on a comment: the first call adds it, the same call again
   * removes it. Logged as `comment.reaction_added` / `comment.reaction_removed` by the member.
   */
  @Post('{id}/comments/{commentId}/reaction')
  @Response<ErrorBody>('404', 'No such task, or no such comment on it')
  @Response<ErrorBody>('422', 'emoji is not one of the set, or asUserId is not a member')
  public async reactToTaskComment(@Path() id: string, @Path() commentId: string, @Body() body: CommentReactionBody): Promise<CommentReactionResult> {
    return this.s.comments.toggleReaction(id, commentId, body.emoji, body.asUserId);
  }

  /**
   * Comment and reaction figures of a task: comment count, reactions in total and per emoji (all
   * five, zeros included), the most used emoji (null without reactions; ties go to the set's
   * order) and up to 5 most-reacted comments (most first, then oldest; text cut to 80 characters).
   */
  @Get('{id}/engagement')
  @Response<ErrorBody>('404', 'No such task')
  public async getTaskEngagement(@Path() id: string): Promise<TaskEngagement> {
    return this.s.comments.engagement(id);
  }
}
