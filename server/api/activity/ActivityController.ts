import { Controller, Get, Query, Route, Security, Tags } from '@tsoa/runtime';
import { invalid } from '../../core/errors';
import { listActivity, type ActivityRecord } from '../../domain/activity/activity';
import { checkRange, parseIso } from '../../domain/workspace/rules';
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
   * The activity log (governance audit trail), newest first.
   * @param limit 1-200
   * @param since ISO time; only entries at or after it
   * @param kind comma-separated kinds, e.g. `workspace.loop_state,workspace.plan`
   * @param q case-insensitive text matched against detail and kind (at most 200 characters)
   */
  @Get()
  public async list(
    @Query() limit = 50,
    @Query() since?: string,
    @Query() kind?: string,
    @Query() q?: string,
  ): Promise<ActivityList> {
    checkRange('limit', limit, 1, 200);
    if (q !== undefined && q.length > 200) throw invalid('q', 'must be at most 200 characters');
    const sinceIso = since === undefined ? undefined : parseIso('since', since).toISOString();
    const kinds = kind?.split(',').map((k) => k.trim()).filter(Boolean);
    return { activities: await listActivity(this.s.db, { limit, since: sinceIso, kinds, q: q?.trim() || undefined }) };
  }
}
