import { Body, Controller, Get, Path, Post, Query, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { Mention } from '../../domain/comments/comment-service';
import type { Services } from '../../services';

export interface MentionList {
  mentions: Mention[];
  /** Pass as `cursor` to read the next (older) page; null on the last page. */
  nextCursor: string | null;
}

export interface AckMentionBody {
  /** The member acknowledging (named in the activity log); defaults to the workspace owner. */
  asUserId?: string;
}

/** Mentions: a member named as `@name` in a task comment has a mention until it is acknowledged. */
@Route('api/v1/mentions')
@Tags('Task comments')
@Security('bearer')
export class MentionsController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * A member's unacknowledged mentions, newest first.
   * @param userId the member mentioned; defaults to the workspace owner
   * @param limit mentions per page, 1-200 (default 50)
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page, as it was served
   */
  @Get()
  @Response<ErrorBody>('422', 'userId is not a member, or limit or cursor is invalid')
  public async listMentions(@Query() userId?: string, @Query() limit = 50, @Query() cursor?: string): Promise<MentionList> {
    const page = await this.s.comments.listMentions({ userId, limit, cursor });
    return { mentions: page.rows, nextCursor: page.nextCursor };
  }

  /**
   * Acknowledges a mention: it leaves the member's unacknowledged list. Logged as
   * `mention.acknowledged` and emits `mention.acknowledged`, once: acknowledging it again answers
   * the same mention and changes nothing.
   */
  @Post('{id}/ack')
  @Response<ErrorBody>('404', 'No such mention')
  @Response<ErrorBody>('422', 'asUserId is not a member')
  public async ackMention(@Path() id: string, @Body() body?: AckMentionBody): Promise<Mention> {
    return this.s.comments.acknowledgeMention(id, body?.asUserId);
  }
}
