import { Body, Controller, Get, Path, Post, Query, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type {
  Artifact,
  ArtifactReactionResult,
  ArtifactSources,
  ArtifactSummary,
  ArtifactVersions,
} from '../../domain/artifacts/artifact-service';
import type { ArtifactStatus } from '../../domain/artifacts/rules';
import type { ReactionEmoji } from '../../domain/reactions/reactions';
import type { Services } from '../../services';

export interface ArtifactList {
  artifacts: ArtifactSummary[];
  /** Pass as `cursor` to read the next (older) page; null on the last page. */
  nextCursor: string | null;
}

export interface ArtifactReactionBody {
  emoji: ReactionEmoji;
  /** The member reacting; defaults to the workspace owner. */
  asUserId?: string;
}

/**
 * Outputs (artifacts): what the loop's cycles produce from tasks, signals and memory. A `ready`
 * output waits for a human decision; `approved` and `archived` are decisions. Waiting time only
 * changes `approvalAttention` (from the workspace approval policy), never the status.
 */
@Route('api/v1/artifacts')
@Tags('Artifacts')
@Security('bearer')
export class ArtifactsController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Outputs, newest first (by creation), optionally of one status. Rows carry everything an
   * output has but its content (read one output for that). Follow `nextCursor` until it is null;
   * a cursor belongs to the `status` it was served with.
   * @param status only outputs in this status
   * @param limit outputs per page, 1-100 (default 25)
   * @isInt limit
   * @minimum limit 1
   * @maximum limit 100
   * @param cursor `nextCursor` of the previous page, as it was served (anything else is a 422 naming `cursor`)
   * @param asUserId the member whose `reacted` flags are shown; defaults to the owner
   */
  @Get()
  @Response<ErrorBody>('422', 'status, limit, cursor or asUserId is invalid')
  public async listArtifacts(
    @Query() status?: ArtifactStatus,
    // the documented default; bounds.test.ts ties it to the list's defineList
    @Query() limit = 25,
    @Query() cursor?: string,
    @Query() asUserId?: string,
  ): Promise<ArtifactList> {
    const page = await this.s.artifacts.list({ status, limit, cursor, asUserId });
    return { artifacts: page.rows, nextCursor: page.nextCursor };
  }

  /**
   * One output with its markdown content, its task's title, its version and waiting time
   * (`approvalAgeHours` and `approvalAttention` while ready, null once decided).
   * @param asUserId the member whose `reacted` flags are shown; defaults to the owner
   */
  @Get('{id}')
  @Response<ErrorBody>('404', 'No such output')
  @Response<ErrorBody>('422', 'asUserId is not a member')
  public async getArtifact(@Path() id: string, @Query() asUserId?: string): Promise<Artifact> {
    return this.s.artifacts.get(id, asUserId);
  }

  /**
   * The signals and memory entries the AI cycle saw when it produced this output, in the order it
   * used them. Inputs deleted since are not an error: their ids are listed in `missingSignalIds`
   * and `missingMemoryIds`. Memory entries archived since are still shown (with `archivedAt`).
   */
  @Get('{id}/sources')
  @Response<ErrorBody>('404', 'No such output')
  public async getArtifactSources(@Path() id: string): Promise<ArtifactSources> {
    return this.s.artifacts.sources(id);
  }

  /**
   * The output's version chain via parentArtifactId, newest first: back from this output at most
   * 12 hops, and forward through the versions that re-work it at most 12 hops. `truncated` is true
   * when the bound stopped the walk with versions beyond it; ask again from the last version listed
   * to see further. The output asked about is flagged `current`.
   */
  @Get('{id}/versions')
  @Response<ErrorBody>('404', 'No such output')
  public async getArtifactVersions(@Path() id: string): Promise<ArtifactVersions> {
    return this.s.artifacts.versions(id);
  }

  /**
   * Toggles a reaction (👍 👀 🎯 ❤️ 🚀): the first call adds it, the same call again removes it.
   * Logged as `artifact.reaction_added` / `artifact.reaction_removed` by the member.
   */
  @Post('{id}/reaction')
  @Response<ErrorBody>('404', 'No such output')
  @Response<ErrorBody>('422', 'emoji is not one of the set, or asUserId is not a member')
  public async reactToArtifact(@Path() id: string, @Body() body: ArtifactReactionBody): Promise<ArtifactReactionResult> {
    return this.s.artifacts.toggleReaction(id, body.emoji, body.asUserId);
  }
}
