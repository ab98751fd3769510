import { Body, Controller, Delete, Get, Patch, Path, Post, Query, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { MemoryBulkResult } from '../../domain/memory/memory-bulk';
import type { DeletedMemory, MemoryList, MemoryReactionResult } from '../../domain/memory/memory-crud';
import type { MemoryEntry } from '../../domain/memory/memory-store';
import type { CostTrajectory, RetrievalTrajectory, StaleMemoryList, TopCostList, TopRetrievedList } from '../../domain/memory/memory-usage';
import type { MemoryBulkAction, MemoryKind } from '../../domain/memory/rules';
import type { ReactionEmoji } from '../../domain/reactions/reactions';
import type { Services } from '../../services';

export interface CreateMemoryBody {
  kind: MemoryKind;
  title: string;
  content: string;
  /**
   * 0-10 (decimals allowed); null or absent = not rated. 9 or higher exempts the entry from the stale list, spike lists and the stale sweep.
   */
  importance?: number | null;
  /** Pinned entries are exempt from the stale list, spike lists and the stale sweep. Default false. */
  pinned?: boolean;
  /**
   * At most 10 tags, each lowercase letters and digits joined by single hyphens (at most 40 characters); duplicates are folded.
   */
  tags?: string[];
  /** The member adding it (activity rows name them); default the owner. */
  asUserId?: string;
}

/** Every field is optional, but at least one of kind, title, content, importance, pinned, tags must be given. */
export interface MemoryPatchBody {
  kind?: MemoryKind;
  title?: string;
  content?: string;
  /**
   * 0-10; null clears the rating.
   */
  importance?: number | null;
  pinned?: boolean;
  /**
   * Replaces the tags: at most 10.
   */
  tags?: string[];
  /** The member editing (activity rows name them); default the owner. */
  asUserId?: string;
}

export interface MemoryBulkBody {
  action: MemoryBulkAction;
  memoryIds: string[];
  /** For `pin`: true pins (default), false unpins. Ignored by the other actions. */
  pinned?: boolean;
  /**
   * Required for `tag` and `untag`.
   */
  tag?: string;
  /** The member acting; default the owner. */
  asUserId?: string;
}

export interface MemoryReactionBody {
  emoji: ReactionEmoji;
  /** The member reacting; defaults to the workspace owner. */
  asUserId?: string;
}

export interface MemoryDeleteBody {
  /** The member deleting (activity rows name them); default the owner. */
  asUserId?: string;
}

/**
 * Durable memory: facts, decisions, preferences and lessons the AI cycles retrieve by relevance.
 * Kinds (the spec leaves them open): fact | decision | preference | lesson. Importance 0-10
 * (decimals allowed) or null. Usage counters (retrievalCount, lastRetrievedAt, retrievals7d, daily
 * retrievals) and attributed tokens and cost are written by the AI cycles and read here. Archived
 * entries (set by the stale-memory auto-archive sweep, workspace staleMemoryAutoArchiveDays) are
 * no longer listed nor retrieved; GET /memory/{id} still reads them. Beyond the spec's table, a
 * user reads, edits and deletes one entry with GET, PATCH and DELETE /memory/{id}; an id that names
 * no entry is a 404 (`error: not_found`). Events: `memory.created`, `memory.updated`,
 * `memory.deleted`, `memory.archived`.
 */
@Route('api/v1/memory')
@Tags('Memory')
@Security('bearer')
export class MemoryController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Live (not archived) entries, newest first, each with its usage counters and attributed cost.
   * @param kind only entries of this kind
   * @param tag only entries carrying this tag
   * @param q keywords: every word must start a word of the title, content or tags (at most 200 characters, at least one letter or digit)
   * @param asUserId whose reactions are marked `reacted` (default the owner)
   * @param limit entries per page
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page, as it was served
   */
  @Get()
  public async listMemory(@Query() kind?: MemoryKind, @Query() tag?: string, @Query() q?: string, @Query() asUserId?: string, @Query() limit = 50, @Query() cursor?: string): Promise<MemoryList> {
    return this.s.memory.list({ kind, tag, q, asUserId, limit, cursor });
  }

  /** Adds an entry (event `memory.created`). */
  @Post()
  @SuccessResponse(201, 'Created')
  public async createMemory(@Body() body: CreateMemoryBody): Promise<MemoryEntry> {
    const entry = await this.s.memory.create(body);
    this.setStatus(201);
    return entry;
  }

  /**
   * Bulk delete, pin (pinned true, the default, or false to unpin), tag or untag of 1-50 entries
   * under the bulk policy (see the API description): unknown ids in `notFound`, entries already in
   * the asked state in `unchanged`, `tag` on an entry that already has 10 tags `skipped`.
   */
  @Post('bulk-update')
  @Response<ErrorBody>('422', 'action, memoryIds (1-50), tag (required for tag and untag) or pinned is invalid; nothing changed')
  public async bulkUpdateMemory(@Body() body: MemoryBulkBody): Promise<MemoryBulkResult> {
    return this.s.memory.bulk(body);
  }

  /**
   * Live entries not retrieved within thresholdDays workspace-timezone days (an entry last
   * retrieved on day D is stale once today is D + thresholdDays or later); pinned entries and
   * importance 9 or higher are excluded. Stalest first (by last retrieval, or creation for
   * never-retrieved entries).
   * @param thresholdDays days without a retrieval
   * @isInt thresholdDays must be an integer
   * @param includeNeverRetrieved also entries never retrieved and created before the window (default true: an entry no cycle ever used is the stalest of all); false lists only entries that were used and stopped being used
   * @param tag only entries carrying this tag
   * @param asUserId whose reactions are marked `reacted` (default the owner)
   * @param limit entries per page
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page
   */
  @Get('stale')
  public async listStaleMemory(
    @Query() thresholdDays = 30,
    @Query() includeNeverRetrieved = true,
    @Query() tag?: string,
    @Query() asUserId?: string,
    @Query() limit = 12,
    @Query() cursor?: string,
  ): Promise<StaleMemoryList> {
    return this.s.memory.stale({ thresholdDays, includeNeverRetrieved, tag, asUserId, limit, cursor });
  }

  /**
   * Live entries with the most retrievals within the last `days` workspace days, most first (ties:
   * more retrievals all time, then id); entries without a retrieval in the window are left out.
   * Each row carries its 7-day trajectory.
   * @param limit rows
   * @isInt limit must be an integer
   * @param days window in workspace days, today included
   * @isInt days must be an integer
   * @param asUserId whose reactions are marked `reacted` (default the owner)
   */
  @Get('top-retrieved')
  public async getTopRetrievedMemory(@Query() limit = 5, @Query() days = 7, @Query() asUserId?: string): Promise<TopRetrievedList> {
    return this.s.memory.topRetrieved({ limit, days, asUserId });
  }

  /**
   * Live entries with the most attributed cost (all time), most first (ties: id); entries without
   * cost are left out.
   * @param limit rows
   * @isInt limit must be an integer
   * @param asUserId whose reactions are marked `reacted` (default the owner)
   */
  @Get('top-cost')
  public async getTopCostMemory(@Query() limit = 5, @Query() asUserId?: string): Promise<TopCostList> {
    return this.s.memory.topCost({ limit, asUserId });
  }

  /**
   * One entry, archived ones included (`archivedAt` set).
   * @param asUserId whose reactions are marked `reacted` (default the owner)
   */
  @Get('{id}')
  public async getMemory(@Path() id: string, @Query() asUserId?: string): Promise<MemoryEntry> {
    return this.s.memory.get(id, asUserId);
  }

  /**
   * Edits kind, title, content, importance, pinned or tags (at least one given; tags replaced as a
   * whole). Values equal to the stored ones change nothing. Event `memory.updated` naming the changed fields.
   */
  @Patch('{id}')
  @Response<ErrorBody>('422', 'a field is out of its bounds, or no field is given; nothing changed')
  public async updateMemory(@Path() id: string, @Body() body: MemoryPatchBody): Promise<MemoryEntry> {
    return this.s.memory.update(id, body);
  }

  /** Deletes the entry with its tags, reactions, daily retrievals and daily cost rows (event `memory.deleted`); its activity rows stay. Answers what was deleted. */
  @Delete('{id}')
  public async deleteMemory(@Path() id: string, @Body() body?: MemoryDeleteBody): Promise<DeletedMemory> {
    return this.s.memory.remove(id, body?.asUserId);
  }

  /**
   * Toggles a reaction (👍 👀 🎯 ❤️ 🚀): the first call adds it, the same call again removes it.
   * Logged as `memory.reaction_added` / `memory.reaction_removed` by the member.
   */
  @Post('{id}/reaction')
  @Response<ErrorBody>('422', 'emoji is not one of the set, or asUserId is not a member')
  public async reactToMemory(@Path() id: string, @Body() body: MemoryReactionBody): Promise<MemoryReactionResult> {
    return this.s.memory.toggleReaction(id, body.emoji, body.asUserId);
  }

  /**
   * Daily retrievals of the entry, oldest first, today last, one point per workspace-timezone day
   * (zero-filled).
   * @param days window in workspace days, today included
   * @isInt days must be an integer
   */
  @Get('{id}/retrieval-trajectory')
  public async getMemoryRetrievalTrajectory(@Path() id: string, @Query() days = 7): Promise<RetrievalTrajectory> {
    return this.s.memory.retrievalTrajectory(id, days);
  }

  /**
   * Daily tokens and cost attributed to the entry, oldest first, today last, one point per
   * workspace-timezone day (zero-filled).
   * @param days window in workspace days, today included
   * @isInt days must be an integer
   */
  @Get('{id}/cost-trajectory')
  public async getMemoryCostTrajectory(@Path() id: string, @Query() days = 7): Promise<CostTrajectory> {
    return this.s.memory.costTrajectory(id, days);
  }
}
