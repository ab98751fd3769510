import { Controller, Get, Query, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { Insights } from '../../domain/overview/overview-service';
import type { Services } from '../../services';

@Route('api/v1/insights')
@Tags('Overview')
@Security('bearer')
export class InsightsController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Top tags of the trailing 14 workspace days (today included): how often each tag is used on
   * tasks, outputs and memory entries created in the window, per kind and in total, most used first
   * (ties alphabetical).
   * @param limit how many tags, 1-50 (default 10)
   * @isInt limit must be an integer
   */
  @Get()
  @Response<ErrorBody>('422', 'limit is out of bounds')
  public async getInsights(@Query() limit = 10): Promise<Insights> {
    return this.s.overview.insights({ limit });
  }
}
