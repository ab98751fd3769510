import { Controller, Get, Route, Tags } from '@tsoa/runtime';
import type { RoadmapItems, RoadmapVotes } from '../../domain/roadmap/roadmap-service';
import { ROADMAP_VOTES_CACHE_CONTROL } from '../../domain/roadmap/rules';
import type { Services } from '../../services';
import { cachePublicly } from '../public/public-http';

/** The public roadmap and its vote counts (no token). Voting is the bearer API's: RoadmapVotesController. */
@Route('api/v1')
@Tags('Public')
export class RoadmapController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Public. Where Desk goes next: the phases Now, Next and Later, in that order, each with its
   * items (key, title, description, status `in_progress`, `planned` or `exploring`) in display
   * order. The items change only with a release, so the answer is cacheable like the other public
   * content: Cache-Control `public, max-age=300, s-maxage=1800`. Vote counts are in GET /roadmap-votes.
   */
  @Get('roadmap-items')
  public async getRoadmapItems(): Promise<RoadmapItems> {
    cachePublicly(this);
    return this.s.roadmap.items();
  }

  /**
   * Public. Vote counts of every roadmap item (in roadmap order): `votes` (standing votes: every
   * vote not taken back), `trend` (votes cast on each of the last 14 UTC days, oldest first, today
   * last, empty days 0) and `momentum7d` (votes cast in the trailing 7 UTC days, today included).
   * Days are UTC calendar days of the desk's clock. A vote taken back leaves every figure.
   *
   * `mostRequested`: the top 5 by votes, ties by momentum7d then roadmap order; items without
   * votes are left out. `mostTrending`: the top 5 by momentum7d, ties by votes then roadmap order,
   * excluding the items in mostRequested and items with no vote in the last 7 days (so either
   * list may hold fewer than 5).
   *
   * Votes change as members vote, so the answer is not cached: Cache-Control `no-cache`.
   */
  @Get('roadmap-votes')
  public async getRoadmapVotes(): Promise<RoadmapVotes> {
    this.setHeader('Cache-Control', ROADMAP_VOTES_CACHE_CONTROL);
    return this.s.roadmap.votes();
  }
}
