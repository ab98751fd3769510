import type { Db } from '../../../db/connection';
import { inTransaction } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { invalid, notFound } from '../../core/errors';
import { pageRequest, toPage, type Page } from '../../core/lists';
import { recordActivity } from '../activity/activity';
import { resolveActor } from '../members/resolve-actor';
import { checkEmoji, summariseReactions, type ReactionEmoji, type ReactionSummary } from '../reactions/reactions';
import type { WorkspaceService } from '../workspace/workspace-service';
import { artifactSources, artifactVersions, type ArtifactSources, type ArtifactVersions } from './artifact-provenance';
import {
  ARTIFACT_CURSOR_SHAPE,
  artifactCursorKey,
  artifactListQuery,
  selectArtifacts,
  toArtifactSummaries,
  type Artifact,
  type ArtifactSummary,
  type ViewContext,
} from './artifact-view';
import { ARTIFACT_LIST, ARTIFACT_STATUSES, type ArtifactStatus } from './rules';

export type { Artifact, ArtifactSummary } from './artifact-view';
export type { ArtifactSources, ArtifactVersions } from './artifact-provenance';

export interface ArtifactListQuery {
  status?: string;
  limit?: number;
  cursor?: string;
  asUserId?: string;
}

export interface ArtifactReactionResult {
  artifactId: string;
  emoji: ReactionEmoji;
  /** true when this call added the reaction, false when it removed it. */
  reacted: boolean;
  /** The output's reactions after the toggle. */
  reactions: ReactionSummary[];
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

  /** One page of outputs, newest first, optionally of one status. */
  async list(query: ArtifactListQuery): Promise<Page<ArtifactSummary>> {
    const status = checkStatus(query.status);
    const { limit, after } = pageRequest(ARTIFACT_LIST, query, ARTIFACT_CURSOR_SHAPE);
    const ctx = await this.viewContext(query.asUserId);
    const page = toPage(await artifactListQuery(this.db, { fetch: limit + 1, status, after }).execute(), limit, artifactCursorKey);
    return { rows: await toArtifactSummaries(this.db, page.rows, ctx), nextCursor: page.nextCursor };
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
    const row = await this.db
      .selectFrom('artifacts')
      .select(['id', 'version', 'kind', 'title', 'status', 'parentArtifactId', 'runId', 'readyAt', 'decidedAt', 'createdAt'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('artifact', id);
    return artifactVersions(this.db, row);
  }

  /** Toggles one member's reaction on an output: a second identical call removes it. */
  async toggleReaction(artifactId: string, emojiInput: string, asUserId?: string): Promise<ArtifactReactionResult> {
    const emoji = checkEmoji(emojiInput);
    return inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx, asUserId);
      const artifact = await trx.selectFrom('artifacts').select(['id', 'title']).where('id', '=', artifactId).executeTakeFirst();
      if (!artifact) throw notFound('artifact', artifactId);
      const mine = trx.deleteFrom('artifactReactions').where('artifactId', '=', artifactId).where('userId', '=', actor.userId).where('emoji', '=', emoji);
      // Deleting tells whether it was there: one statement instead of a read and a write.
      const removed = Number((await mine.executeTakeFirst()).numDeletedRows) > 0;
      if (!removed) await trx.insertInto('artifactReactions').values({ artifactId, userId: actor.userId, emoji, createdAt: this.clock.now().toISOString() }).execute();
      await recordActivity(trx, this.clock, {
        kind: removed ? 'artifact.reaction_removed' : 'artifact.reaction_added',
        detail: `${removed ? 'Removed' : 'Added'} ${emoji} on output: ${artifact.title}`,
        actor,
        entityType: 'artifact',
        entityId: artifactId,
      });
      const rows = await trx.selectFrom('artifactReactions').select(['artifactId as targetId', 'userId', 'emoji']).where('artifactId', '=', artifactId).orderBy('createdAt').execute();
      return { artifactId, emoji, reacted: !removed, reactions: summariseReactions(rows, actor.userId).get(artifactId) ?? [] };
    });
  }
}
