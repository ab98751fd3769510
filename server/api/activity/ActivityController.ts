import { Controller, Get, Query, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { ActivityRecord } from '../../domain/activity/activity-service';
import type { Services } from '../../services';

export interface ActivityList {
  activities: ActivityRecord[];
  /** Pass as `cursor` to read the next (older) page; null on the last page. */
  nextCursor: string | null;
}

@Route('api/v1/activity')
@Tags('Activity')
@Security('bearer')
export class ActivityController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * The activity log (governance audit trail), newest first. Every change writes one row in the
   * same transaction as the change; changes made by the desk itself (e.g. a scheduled pause
   * running out) are by the actor `system`. The whole log is readable: follow `nextCursor` until
   * it is null. A cursor belongs to the filters it was served with; pass them again with it.
   * @param limit rows per page, 1-200 (default 50)
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page, as it was served (anything else is a 422 naming `cursor`)
   * @param since ISO 8601 time with an offset or Z; only entries at or after it. A date alone
   * (`2026-03-10`) means the start of that day in the workspace timezone.
   * @param kind comma-separated kinds (see ActivityKind), exact match, e.g. `workspace.loop_state,workspace.plan`;
   * empty means all. A kind that is not an ActivityKind is a 422 naming `kind` (a typo would
   * otherwise read as an empty log).
   * @param q words matched against detail and kind through the search index, as GET /search does:
   * every word must be a word of the row (the kind `workspace.loop_state` holds the words
   * workspace, loop and state), the last one also as the start of a word; case and accents are
   * ignored; a q without letters or digits matches nothing; at most 200 characters
   */
  @Response<ErrorBody>('422', 'limit, cursor, since, kind or q is invalid')
  @Get()
  public async listActivity(
    // the documented default; bounds.test.ts ties it to the list's defineList
    @Query() limit = 50,
    @Query() cursor?: string,
    @Query() since?: string,
    @Query() kind?: string,
    @Query() q?: string,
  ): Promise<ActivityList> {
    const page = await this.s.activity.list({ limit, cursor, since, kind, q });
    return { activities: page.rows, nextCursor: page.nextCursor };
  }
}
