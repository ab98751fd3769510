import type { Request as ExRequest } from 'express';
import { Controller, Get, Path, Query, Request, Response, Route, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import { ChangelogService, type CadenceAnswer, type ChangelogList, type PeakWeekAnswer, type ReleaseDetail, type TrendAnswer } from '../../domain/changelog/changelog-service';
import type { Services } from '../../services';
import { baseUrlOf, cachePublicly } from '../public/public-http';

/**
 * Desk's own release history (public, no authorization header). Every success answers with
 * `Cache-Control: public, max-age=300, s-maxage=1800`. The releases are the ones this build ships
 * with; cadence windows are whole UTC days ending on today's UTC date by the desk's clock.
 * Fixed paths (latest, cadence, peak-week, trend) are declared before `changelog/{rev}`.
 */
@Route('api/v1')
@Tags('Public')
export class ChangelogController extends Controller {
  private readonly changelog: ChangelogService;
  constructor(s: Services) {
    super();
    this.changelog = new ChangelogService(s.clock);
  }

  /**
   * Public. Releases newest first, in the wrapper `{ generatedAt, total, filtered, returned,
   * sinceRev, releases }`. `sinceRev` keeps only releases newer than that rev (`filtered` counts
   * them), then `limit` cuts the newest of those. Each release carries `url`, its human page.
   * @param limit releases answered, 1-100 (default 20)
   * @isInt limit must be an integer
   * @param sinceRev a rev number (0-1000000): only releases newer than it (0 = all)
   * @isInt sinceRev must be an integer
   */
  @Get('changelog')
  @Response<ErrorBody>('422', 'limit or sinceRev is invalid')
  public async listChangelog(@Request() req: ExRequest, @Query() limit = 20, @Query() sinceRev?: number): Promise<ChangelogList> {
    const answer = this.changelog.list({ limit, sinceRev }, baseUrlOf(req));
    cachePublicly(this);
    return answer;
  }

  /** Public. The newest release in the detail shape; `neighbors.newer` is always null. */
  @Get('changelog/latest')
  public async getLatestRelease(@Request() req: ExRequest): Promise<ReleaseDetail> {
    const answer = this.changelog.latest(baseUrlOf(req));
    cachePublicly(this);
    return answer;
  }

  /**
   * Public. Release cadence over the last `days` UTC days (today included): `perDay` has every day
   * oldest first, empty days with `revCount` 0; active days carry up to 3 `sampleRevs` and a
   * `historicalTrajectory`: where the whole release history stood that day (releases since rev 1,
   * and in the 30 and 90 days ending that day); empty days carry null. Rollups: totalRevsInWindow,
   * activeDays, avgRevsPerActiveDay (2 decimals, 0 without active days), peakDay (most releases,
   * earliest of a tie; null without any). `peakWeek` is the most active span of 7 consecutive days
   * (spans start on each day of the window with a release, clipped at its end; earliest of a tie; null without any
   * release) and `peakWeekRevs` its revs oldest first. `weekly`: 7-day buckets counted back from
   * today, oldest first (the oldest shorter when `days` is not a multiple of 7); `topWeeks`: up to 3
   * of them with a release, revCount descending, ties by weekStart ascending.
   * @param days window length in UTC days, 1-365 (default 90)
   * @isInt days must be an integer
   */
  @Get('changelog/cadence')
  @Response<ErrorBody>('422', 'days is invalid')
  public async getChangelogCadence(@Query() days = 90): Promise<CadenceAnswer> {
    const answer = this.changelog.cadence({ days });
    cachePublicly(this);
    return answer;
  }

  /**
   * Public. The `peakWeek` and `peakWeekRevs` of the cadence read (same window and rules) without
   * the per-day array.
   * @param days window length in UTC days, 1-365 (default 90)
   * @isInt days must be an integer
   */
  @Get('changelog/peak-week')
  @Response<ErrorBody>('422', 'days is invalid')
  public async getChangelogPeakWeek(@Query() days = 90): Promise<PeakWeekAnswer> {
    const answer = this.changelog.peakWeek({ days });
    cachePublicly(this);
    return answer;
  }

  /**
   * Public. The release trend over the trailing 4 weekly buckets (7-day buckets ending today, UTC),
   * oldest to newest. `latest` counts the releases of the newest two buckets (the last 14 days),
   * `prior` those of the two before, `delta` = latest - prior. The verb: `Accelerating` when delta
   * >= 2, `Cooling` when delta <= -2, `Steady` in between, `—` when the 4 weeks have no release.
   */
  @Get('changelog/trend')
  public async getChangelogTrend(): Promise<TrendAnswer> {
    const answer = this.changelog.trend();
    cachePublicly(this);
    return answer;
  }

  /**
   * Public. One release plus `neighbors { newer, older }` (null at the ends). `rev` is the number
   * (`12`); `rev 12` and `rev-12` are accepted too. Anything else is a 422 naming `rev`; a number
   * that names no release is a 404 in the one error shape (`error: "not_found"`).
   * @param rev the release number
   */
  @Get('changelog/{rev}')
  @Response<ErrorBody>('404', 'no release has this number')
  @Response<ErrorBody>('422', 'rev is not a release number')
  public async getRelease(@Request() req: ExRequest, @Path() rev: string): Promise<ReleaseDetail> {
    const answer = this.changelog.detail(rev, baseUrlOf(req));
    cachePublicly(this);
    return answer;
  }
}
