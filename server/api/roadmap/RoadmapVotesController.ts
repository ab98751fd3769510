import { Body, Controller, Delete, Get, Path, Post, Query, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { MyRoadmapVotes, RoadmapVoteResult } from '../../domain/roadmap/roadmap-service';
import type { Services } from '../../services';

export interface RoadmapVoteBody {
  /** The member who votes; defaults to the workspace owner. */
  asUserId?: string;
}

/**
 * Voting on the public roadmap: a member of the desk casts at most one vote per item and can take
 * it back. The counts are public (GET /roadmap-votes); who voted is not.
 */
@Route('api/v1/roadmap-items')
@Tags('Roadmap')
@Security('bearer')
export class RoadmapVotesController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * The items a member votes for, in roadmap order.
   * @param asUserId the member; defaults to the workspace owner
   */
  @Get('my-votes')
  @Response<ErrorBody>('422', 'asUserId is not a member')
  public async getMyRoadmapVotes(@Query() asUserId?: string): Promise<MyRoadmapVotes> {
    return this.s.roadmap.myVotes(asUserId);
  }

  /**
   * Votes for a roadmap item as a member (the owner by default): one vote per member and item,
   * counted on the UTC day it is cast. Voting again for the same item changes nothing and answers
   * `changed: false`. Logged as `roadmap.voted`.
   * @param key the roadmap item's key (GET /roadmap-items)
   */
  @Post('{key}/vote')
  @Response<ErrorBody>('404', 'No roadmap item with this key (not_found)')
  @Response<ErrorBody>('422', 'asUserId is not a member; nothing was written')
  public async voteForRoadmapItem(@Path() key: string, @Body() body?: RoadmapVoteBody): Promise<RoadmapVoteResult> {
    return this.s.roadmap.vote(key, body?.asUserId);
  }

  /**
   * Takes back a member's vote (the owner by default). Taking back a vote never cast changes
   * nothing and answers `changed: false`. Logged as `roadmap.vote_removed`.
   * @param key the roadmap item's key (GET /roadmap-items)
   * @param asUserId the member; defaults to the workspace owner
   */
  @Delete('{key}/vote')
  @Response<ErrorBody>('404', 'No roadmap item with this key (not_found)')
  @Response<ErrorBody>('422', 'asUserId is not a member; nothing was written')
  public async removeRoadmapVote(@Path() key: string, @Query() asUserId?: string): Promise<RoadmapVoteResult> {
    return this.s.roadmap.unvote(key, asUserId);
  }
}
