import type { Db } from '../../../db/connection';
import { inTransaction } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { invalid, notFound } from '../../core/errors';
import { pageRequest, toPage } from '../../core/lists';
import { recordActivity } from '../activity/activity';
import { resolveActor } from '../members/resolve-actor';
import { checkEmoji, type ReactionEmoji, type ReactionSummary } from '../reactions/reactions';
import type { WorkspaceService } from '../workspace/workspace-service';
import { artifactSources, artifactVersions, selectVersions, type ArtifactSources, type ArtifactVersions } from './artifact-provenance';
import { editArtifact, reopenArtifact, type ArtifactEditInput } from './artifact-versions';
import { decideAll, decideOne, setPinned, setTags, type BulkDecisionResult, type Decision } from './artifact-decisions';
import { exportDecisions, listDecisions, type DecisionsExport, type DecisionsList } from './decisions-log';
import {
  checkAttention,
  ownerCapacity,
  QUEUE_CURSOR_SHAPE,
  QUEUE_SORTS,
  queueAggregates,
  queueItems,
  queueKey,
  REVIEWER_FILTERS,
  selectQueue,
  type QueueAggregates,
  type ReviewOwnerCapacity,
} from './review-queue';
import {
  selectArtifacts,
  toArtifactSummaries,
  type Artifact,
  type ArtifactSummary,
  type ViewContext,
} from './artifact-view';
import { ARTIFACT_LIST, ARTIFACT_STATUSES, type ArtifactStatus } from './rules';
import { toggleReactionRow } from '../reactions/reaction-store';

export type { Artifact, ArtifactSummary } from './artifact-view';
export type { ArtifactSources, ArtifactVersions } from './artifact-provenance';
export type { QueueAggregates, ReviewOwnerCapacity } from './review-queue';
export type { BulkDecisionResult } from './artifact-decisions';
export type { DecisionsExport, DecisionsList } from './decisions-log';

export interface ArtifactListQuery {
  status?: string;
  attention?: string;
  reviewer?: string;
  reviewerId?: string;
  sort?: string;
  limit?: number;
  cursor?: string;
  asUserId?: string;
}

/** A queue row: an output's summary with its owner's load (ready rows with an owner; null otherwise). */
export interface ReviewQueueRow extends ArtifactSummary {
  reviewOwnerCapacity: ReviewOwnerCapacity | null;
}

export interface ReviewQueuePage extends QueueAggregates {
  rows: ReviewQueueRow[];
  nextCursor: string | null;
}

export interface ArtifactReactionResult {
  artifactId: string;
  emoji: ReactionEmoji;
  /** true when this call added the reaction, false when it removed it. */
  reacted: boolean;
  /** The output's reactions after the toggle. */
  reactions: ReactionSummary[];
}

function checkOneOf<T extends string>(field: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw invalid(field, `must be one of ${allowed.join(', ')}`);
  return value as T;
}

function checkStatus(value: string | undefined): ArtifactStatus | undefined {
  if (value === undefined) return undefined;
  if (!(ARTIFACT_STATUSES as readonly string[]).includes(value)) throw invalid('status', `must be one of ${ARTIFACT_STATUSES.join(', ')}`);
  return value as ArtifactStatus;
}

/**
 * Outputs (artifacts) as people read them: one output, a minimal list, their provenance and
 * reactions. The loop runner writes them; decisions (approve, archive) belong to the review queue.
 */
export class ArtifactService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly workspace: WorkspaceService,
  ) {}

  private async viewContext(asUserId?: string): Promise<ViewContext> {
    const viewer = await resolveActor(this.db, asUserId);
    return { now: this.clock.now(), policy: await this.workspace.approvalPolicy(), viewerId: viewer.userId };
  }

  /**
   * The review queue: one page of outputs of one status (ready by default), pinned first then by
   * review clock, with every aggregate over all ready outputs (filters and limit never apply).
   */
  async list(query: ArtifactListQuery): Promise<ReviewQueuePage> {
    const status = checkStatus(query.status) ?? 'ready';
    const attention = checkAttention(query.attention);
    if (attention !== undefined && status !== 'ready') throw invalid('attention', 'applies to ready outputs only (status=ready)');
    const reviewer = checkOneOf('reviewer', query.reviewer, REVIEWER_FILTERS);
    const sort = checkOneOf('sort', query.sort, QUEUE_SORTS) ?? (status === 'ready' ? 'oldest' : 'recent');
    const { limit, after } = pageRequest(ARTIFACT_LIST, query, QUEUE_CURSOR_SHAPE);
    if (query.reviewerId !== undefined) {
      const known = await this.db.selectFrom('users').select('id').where('id', '=', query.reviewerId).executeTakeFirst();
      if (!known) throw invalid('reviewerId', 'is not a member of this workspace');
    }
    const ctx = await this.viewContext(query.asUserId);
    const timezone = (await this.workspace.profile()).timezone;
    const ready = await queueItems(this.db, 'ready');
    const listed = status === 'ready' ? ready : await queueItems(this.db, status);
    const picked = selectQueue(listed, { attention, reviewer, reviewerId: query.reviewerId, sort, after }, ctx.now, ctx.policy, limit + 1);
    const page = toPage(picked, limit, queueKey);
    const aggregates = await queueAggregates(this.db, ready, { ...ctx, timezone });
    const ids = page.rows.map((r) => r.id);
    const rows = ids.length ? await selectArtifacts(this.db).where('artifacts.id', 'in', ids).execute() : [];
    const order = new Map(ids.map((id, i) => [id, i]));
    rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    const summaries = await toArtifactSummaries(this.db, rows, ctx);
    return {
      rows: summaries.map((r) => ({
        ...r,
        reviewOwnerCapacity: r.status === 'ready' ? ownerCapacity(aggregates.approvalCapacity, r.reviewOwner?.userId ?? null) : null,
      })),
      nextCursor: page.nextCursor,
      ...aggregates,
    };
  }

  async get(id: string, asUserId?: string): Promise<Artifact> {
    const row = await selectArtifacts(this.db).select('artifacts.content').where('artifacts.id', '=', id).executeTakeFirst();
    if (!row) throw notFound('artifact', id);
    const [summary] = await toArtifactSummaries(this.db, [row], await this.viewContext(asUserId));
    return { ...summary, content: row.content };
  }

  async sources(id: string): Promise<ArtifactSources> {
    const row = await this.db.selectFrom('artifacts').select(['id', 'sourceSignalIds', 'sourceMemoryIds']).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('artifact', id);
    return artifactSources(this.db, row);
  }

  async versions(id: string): Promise<ArtifactVersions> {
    const row = await selectVersions(this.db).where('artifacts.id', '=', id).executeTakeFirst();
    if (!row) throw notFound('artifact', id);
    return artifactVersions(this.db, row);
  }

  /** Approves or archives one ready output and answers it as read afterwards (409 when already decided). */
  async decide(id: string, to: Decision, asUserId?: string): Promise<Artifact> {
    await decideOne(this.db, this.clock, id, to, asUserId);
    return this.get(id, asUserId);
  }

  /**
   * Saves an edited body as a new version authored by the member and answers it (`created`), or
   * answers the version as it is when nothing changed.
   */
  async edit(id: string, input: ArtifactEditInput, asUserId?: string): Promise<{ artifact: Artifact; created: boolean }> {
    const newId = await editArtifact(this.db, this.clock, id, input, asUserId);
    return { artifact: await this.get(newId ?? id, asUserId), created: newId !== null };
  }

  /** Reopens a decided output as a new ready version and answers that version. */
  async reopen(id: string, asUserId?: string): Promise<Artifact> {
    return this.get(await reopenArtifact(this.db, this.clock, id, asUserId), asUserId);
  }

  bulkDecide(action: string, asUserId?: string): Promise<BulkDecisionResult> {
    return decideAll(this.db, this.clock, action, asUserId);
  }

  async setTags(id: string, tags: unknown, asUserId?: string): Promise<Artifact> {
    await setTags(this.db, this.clock, id, tags, asUserId);
    return this.get(id, asUserId);
  }

  async setPinned(id: string, pinned: unknown, asUserId?: string): Promise<Artifact> {
    await setPinned(this.db, this.clock, id, pinned, asUserId);
    return this.get(id, asUserId);
  }

  /** The last approved or archived non-brief outputs decided within the window. */
  decisions(query: { windowDays?: number; limit?: number; cursor?: string }): Promise<DecisionsList> {
    return listDecisions(this.db, this.clock, query);
  }

  /** Every approved or archived non-brief output, newest decision first, capped at 5000 rows. */
  exportDecisions(): Promise<DecisionsExport> {
    return exportDecisions(this.db);
  }

  /** Toggles one member's reaction on an output: a second identical call removes it. */
  async toggleReaction(artifactId: string, emojiInput: string, asUserId?: string): Promise<ArtifactReactionResult> {
    const emoji = checkEmoji(emojiInput);
    return inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx, asUserId);
      const artifact = await trx.selectFrom('artifacts').select(['id', 'title']).where('id', '=', artifactId).executeTakeFirst();
      if (!artifact) throw notFound('artifact', artifactId);
      const { reacted, reactions } = await toggleReactionRow(trx, this.clock, 'artifact', artifactId, actor.userId, emoji);
      const removed = !reacted;
      await recordActivity(trx, this.clock, {
        kind: removed ? 'artifact.reaction_removed' : 'artifact.reaction_added',
        detail: `${removed ? 'Removed' : 'Added'} ${emoji} on output: ${artifact.title}`,
        actor,
        entityType: 'artifact',
        entityId: artifactId,
      });
      return { artifactId, emoji, reacted, reactions };
    });
  }
}
