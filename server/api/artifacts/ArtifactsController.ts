import { Body, Controller, Get, Path, Post, Put, Query, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { Artifact, ArtifactReactionResult, ArtifactSources, ArtifactVersions, BulkDecisionResult, ReviewQueueRow } from '../../domain/artifacts/artifact-service';
import type { QueueSort, ReviewerFilter } from '../../domain/artifacts/review-queue';
import type { ApprovalAttention, ApprovalPolicy, ArtifactStatus, BulkDecisionAction } from '../../domain/artifacts/rules';
import type { ApprovalCapacity } from '../../domain/review/capacity';
import type { ApprovalAging, ApprovalOwnership } from '../../domain/review/queue-stats';
import type { ApprovalThroughput } from '../../domain/review/throughput';
import type { ReactionEmoji } from '../../domain/reactions/reactions';
import type { Services } from '../../services';

/**
 * A page of the review queue. `artifacts` follows the filters, sort and limit; every aggregate
 * (approvalPolicy, approvalAging, approvalOwnership, approvalCapacity, approvalThroughput) is
 * computed over all ready outputs (and recent decisions) and never depends on them.
 */
export interface ArtifactList {
  artifacts: ReviewQueueRow[];
  /** Pass as `cursor` to read the next page (with the same filters and sort); null on the last page. */
  nextCursor: string | null;
  /** The workspace approval policy the attention labels use (hours). */
  approvalPolicy: ApprovalPolicy;
  /** Ready outputs by attention, and the oldest wait. */
  approvalAging: ApprovalAging;
  /** Ready outputs by owner: assigned, unassigned, the viewer's (asUserId, else the workspace owner) and the viewer's overdue ones. */
  approvalOwnership: ApprovalOwnership;
  /**
   * Reviewer capacity over the oldest 200 waiting reviews (`coverage` says how many were read):
   * per-reviewer load, target load (covered reviews per available reviewer), queue spread, the
   * most-loaded and lightest available reviewers, a bounded move suggestion (at most 5 reviews;
   * guidance only, nothing moves automatically), available/away/unassigned totals and the
   * `no_reviewer_available` state. Only available reviewers count toward target load and suggestions.
   */
  approvalCapacity: ApprovalCapacity;
  /**
   * Decision speed over workspace-timezone days: wait = decidedAt - readyAt in hours; median (mean
   * of the middle two for an even count); p90 by nearest rank (the ceil(0.9 n)-th smallest) over 30
   * days; shares are of the window's decisions (0-1, 3 decimals, null without decisions): past 72 h
   * (wait > 72), within 24 h (wait <= 24), within watch (wait < watchHours), past policy (wait >=
   * overdueHours), approved share; samples are exact when readyAt was stored, inferred when it fell
   * back to the created time; trend compares the last 7 days' median with the 7 before (faster or
   * slower past a 10% change, steady within it, insufficient with fewer than 3 decisions in either
   * week); `daily` holds the last 14 workspace days, oldest first, zero-filled.
   */
  approvalThroughput: ApprovalThroughput;
}

export interface BulkDecisionBody {
  /** `approve_all` approves, `archive_all` archives, every output that is ready now. */
  action: BulkDecisionAction;
  /** The deciding member (owner, admin or editor); defaults to the workspace owner. */
  asUserId?: string;
}

export interface DecisionBody {
  /** The deciding member (owner, admin or editor); defaults to the workspace owner. */
  asUserId?: string;
}

export interface ArtifactEditBody {
  /**
   * The edited body, Markdown (1-100,000 characters; not blank). It becomes a new version of the
   * output, authored by the member.
   */
  content: string;
  /** A new title (1-200 characters, trimmed); the edited version's title when omitted. */
  title?: string;
  /** The editing member (owner, admin or editor); defaults to the workspace owner. */
  asUserId?: string;
}

export interface ArtifactTagsBody {
  /**
   * The output's tags, replacing the current ones: at most 10, each lowercase letters and digits joined by single hyphens (at most 40 characters); duplicates are dropped.
   */
  tags: string[];
  /** The member making the change; defaults to the workspace owner. */
  asUserId?: string;
}

export interface ArtifactPinBody {
  /** true pins (pinned outputs lead the queue), false unpins. */
  pinned: boolean;
  /** The member making the change; defaults to the workspace owner. */
  asUserId?: string;
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
   * The review queue: outputs of one status (default `ready`), one entry per output: a version a
   * newer version of the same output replaced (`supersededAt` set) leaves the queue and is listed
   * only in the version chain. Pinned first, then oldest first by
   * readyAt (`sort=recent`: pinned first, then newest first; approved and archived lists default to
   * `recent`). Rows carry everything an output has but its content, plus `reviewOwner` and
   * `reviewOwnerCapacity`. The aggregates are over every ready output, independent of the filters,
   * the sort and the limit. Follow `nextCursor` until it is null; a cursor belongs to the filters
   * and sort it was served with.
   * @param status outputs in this status (default ready)
   * @param attention only ready outputs with this attention label (status must be ready)
   * @param reviewer `assigned`: outputs whose task has an assignee; `unassigned`: those without
   * @param reviewerId only outputs whose review owner is this member
   * @param sort `oldest` (default for ready) or `recent` (default for approved and archived), after pinned ones
   * @param limit outputs per page, 1-100 (default 25)
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page, as it was served (anything else is a 422 naming `cursor`)
   * @param asUserId the viewer: whose `reacted` flags are shown and whose reviews `approvalOwnership.mine` counts; defaults to the owner
   */
  @Get()
  @Response<ErrorBody>('422', 'status, attention, reviewer, reviewerId, sort, limit, cursor or asUserId is invalid')
  public async listArtifacts(
    @Query() status?: ArtifactStatus,
    @Query() attention?: ApprovalAttention,
    @Query() reviewer?: ReviewerFilter,
    @Query() reviewerId?: string,
    @Query() sort?: QueueSort,
    // the documented default; bounds.test.ts ties it to the list's defineList
    @Query() limit = 25,
    @Query() cursor?: string,
    @Query() asUserId?: string,
  ): Promise<ArtifactList> {
    const { rows, ...rest } = await this.s.artifacts.list({ status, attention, reviewer, reviewerId, sort, limit, cursor, asUserId });
    return { artifacts: rows, ...rest };
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
   * Decides every ready output at once: `approve_all` approves them, `archive_all` archives them.
   * Superseded versions (replaced by a newer version while they waited) are not in the queue and
   * are not decided. Only outputs in `ready` change (approved and archived ones are left as they are); each gets
   * `decidedAt` stamped once, an activity row (`artifact.approved` / `artifact.archived`) and an
   * event of the same name. With nothing ready it answers `decided: 0` and changes nothing.
   */
  @Post('bulk')
  @Response<ErrorBody>('422', 'action is not approve_all or archive_all, or asUserId is not a member who may decide')
  public async bulkDecideArtifacts(@Body() body: BulkDecisionBody): Promise<BulkDecisionResult> {
    return this.s.artifacts.bulkDecide(body.action, body.asUserId);
  }

  /**
   * Approves one ready output: status `approved`, `decidedAt` stamped (never changed again),
   * logged as `artifact.approved` with the event of the same name. Answers the output. Not routed
   * by the spec; it is the single-output form of the bulk decision.
   */
  @Post('{id}/approve')
  @Response<ErrorBody>('404', 'No such output')
  @Response<ErrorBody>('409', 'The output is already approved or archived (artifact_decided), or a newer version replaced it (artifact_superseded)')
  @Response<ErrorBody>('422', 'asUserId is not a member who may decide (owner, admin, editor)')
  public async approveArtifact(@Path() id: string, @Body() body: DecisionBody): Promise<Artifact> {
    return this.s.artifacts.decide(id, 'approved', body.asUserId);
  }

  /**
   * Archives one ready output: status `archived`, `decidedAt` stamped (never changed again),
   * logged as `artifact.archived` with the event of the same name. Answers the output.
   */
  @Post('{id}/archive')
  @Response<ErrorBody>('404', 'No such output')
  @Response<ErrorBody>('409', 'The output is already approved or archived (artifact_decided), or a newer version replaced it (artifact_superseded)')
  @Response<ErrorBody>('422', 'asUserId is not a member who may decide (owner, admin, editor)')
  public async archiveArtifact(@Path() id: string, @Body() body: DecisionBody): Promise<Artifact> {
    return this.s.artifacts.decide(id, 'archived', body.asUserId);
  }

  /**
   * Saves an edited body as a NEW version of the output, authored by the member (`authorKind`
   * `member`, `authorUserId`): the edited version is left as it was, marked superseded (it leaves
   * the queue and stays in the version chain), and the new one, which is what gets approved, waits
   * in its place. Not in the spec; decided as a user expects:
   * - only the version waiting for review can be edited: an approved or archived one answers 409
   *   `artifact_decided` (reopen it first), a superseded one 409 `artifact_superseded`, naming the
   *   newer version;
   * - the review clock carries over (readyAt is not reset by edits); tags, kind, task and sources
   *   carry over too; `runId` is null (no cycle wrote it);
   * - the same title and content again writes nothing and answers the version as it is (200).
   * Logged as `artifact.edited`, with the events `artifact.superseded`, `artifact.created` and
   * `artifact.ready`. Answers the new version (201).
   */
  @Post('{id}/versions')
  @SuccessResponse('201', 'The new version')
  @Response<Artifact>('200', 'Nothing changed: the version as it is')
  @Response<ErrorBody>('404', 'No such output')
  @Response<ErrorBody>('409', 'The output is decided (artifact_decided) or a newer version replaced it (artifact_superseded)')
  @Response<ErrorBody>('422', 'content or title is empty or too long, or asUserId is not a member who may edit')
  public async editArtifact(@Path() id: string, @Body() body: ArtifactEditBody): Promise<Artifact> {
    const { artifact, created } = await this.s.artifacts.edit(id, { content: body.content, title: body.title }, body.asUserId);
    this.setStatus(created ? 201 : 200);
    return artifact;
  }

  /**
   * Reopens an approved or archived output: a new `ready` version with the same title and content,
   * authored by the member, whose review starts now (a new readyAt). The decided version keeps its
   * status and its decidedAt, which never change. A version of the same output still waiting is
   * superseded by the new one. A ready output answers 409 `artifact_not_decided`. Logged as
   * `artifact.reopened`. Answers the new version (201). Not in the spec.
   */
  @Post('{id}/reopen')
  @SuccessResponse('201', 'The new version')
  @Response<ErrorBody>('404', 'No such output')
  @Response<ErrorBody>('409', 'The output is still waiting for review (artifact_not_decided)')
  @Response<ErrorBody>('422', 'asUserId is not a member who may reopen (owner, admin, editor)')
  public async reopenArtifact(@Path() id: string, @Body() body: DecisionBody): Promise<Artifact> {
    const artifact = await this.s.artifacts.reopen(id, body.asUserId);
    this.setStatus(201);
    return artifact;
  }

  /**
   * Replaces an output's tags (logged as `artifact.tags_changed`; the same tags again change
   * nothing). Tags never touch readyAt, decidedAt or the status. Answers the output.
   */
  @Put('{id}/tags')
  @Response<ErrorBody>('404', 'No such output')
  @Response<ErrorBody>('422', 'a tag is malformed, more than 10 tags, or asUserId is not a member')
  public async setArtifactTags(@Path() id: string, @Body() body: ArtifactTagsBody): Promise<Artifact> {
    return this.s.artifacts.setTags(id, body.tags, body.asUserId);
  }

  /**
   * Pins or unpins an output: pinned outputs lead the queue in either sort. Logged as
   * `artifact.pinned` / `artifact.unpinned` (the same value again changes nothing). Never touches
   * readyAt, decidedAt or the status. Answers the output.
   */
  @Post('{id}/pin')
  @Response<ErrorBody>('404', 'No such output')
  @Response<ErrorBody>('422', 'pinned is not a boolean, or asUserId is not a member')
  public async pinArtifact(@Path() id: string, @Body() body: ArtifactPinBody): Promise<Artifact> {
    return this.s.artifacts.setPinned(id, body.pinned, body.asUserId);
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
