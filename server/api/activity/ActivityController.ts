import { Controller, Get, Query, Response, Route, Security, Tags } from '@tsoa/runtime';
import { invalid, type ErrorBody } from '../../core/errors';
import { listActivity, type ActivityRecord } from '../../domain/activity/activity';
import { checkRange } from '../../domain/workspace/rules';
import { parseIso } from '../../core/workspace-time';
import type { Services } from '../../services';

export interface ActivityList {
  activities: ActivityRecord[];
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
   * running out) are by the actor `system`.
   * @param limit at most this many rows, 1-200
   * @isInt limit
   * @minimum limit 1
   * @maximum limit 200
   * @param since ISO 8601 time with an offset or Z; only entries at or after it. A date alone
   * (`2026-03-10`) means the start of that day in the workspace timezone.
   * @param kind comma-separated kinds, exact match, e.g. `workspace.loop_state,workspace.plan`; empty means all
   * @param q case-insensitive text matched against detail and kind (at most 200 characters; % and _ are literal)
   */
  @Response<ErrorBody>('422', 'limit, since or q is invalid')
  @Get()
  public async listActivity(
    @Query() limit = 50,
    @Query() since?: string,
    @Query() kind?: string,
    @Query() q?: string,
  ): Promise<ActivityList> {
    checkRange('limit', limit, 1, 200);
    if (q !== undefined && q.length > 200) throw invalid('q', 'must be at most 200 characters');
    const sinceIso = since === undefined ? undefined : parseIso('since', since, (await this.s.workspace.profile()).timezone).toISOString();
    const kinds = kind?.split(',').map((k) => k.trim()).filter(Boolean);
    return { activities: await listActivity(this.s.db, { limit, since: sinceIso, kinds, q: q?.trim() || undefined }) };
  }
}
