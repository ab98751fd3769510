import { Body, Controller, Get, Path, Post, Query, Route, Security, Tags } from '@tsoa/runtime';
import type { ChronicAckRow, CostAck, CostAckBulkResult } from '../../domain/cost-guard/acks';
import type { CostChronicList, CostSpikeList } from '../../domain/cost-guard/spike-lists';
import type { Services } from '../../services';

export interface AssigneeIdsBody {
  /**
   * Member ids (the unassigned bucket `__unassigned__` names no member and is never spiking).
   */
  assigneeUserIds: string[];
}

export interface TagsBody {
  /**
   * Tags (`untagged` is not a tag and is never spiking).
   */
  tags: string[];
}

/**
 * Cost guardrails by assignee, source and tag: who spikes today (today at least 2 times the
 * trailing 7-day daily average and at least 0.50 USD, workspace-timezone days), chronic streaks
 * (3 consecutive spike days; sources: the workspace's sourceChronicThresholdDays) and their acks.
 * A cost-spike ack mutes the spike for the rest of the workspace day and lifts a spike pause; a
 * chronic ack mutes the chronic warning for 7 days and lifts a source's chronic pause. Acking an
 * entity that is not spiking is allowed (it mutes a spike later that day). One activity row per
 * acked entity and one `<dimension>.cost_spike_acked` / `.chronic_warning_acked` event per call.
 */
@Route('api/v1/cost')
@Tags('Cost')
@Security('bearer')
export class CostGuardController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Members whose queue (the tasks assigned to them, full cost) spikes today; unacknowledged first,
   * then the highest spend. Rows carry consecutiveSpikeDays, ackedAt and paused (always false: no
   * pause action exists for assignees).
   * @param limit rows per page
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page
   */
  @Get('by-assignee/spikes')
  public async listAssigneeCostSpikes(@Query() limit = 10, @Query() cursor?: string): Promise<CostSpikeList> {
    return this.s.costGuard.spikeList('assignee', { limit, cursor });
  }

  /**
   * Members with consecutiveSpikeDays at least 3 (a streak counts while the last spike was today or
   * yesterday); chronic-acked ones stay listed with chronicAckedAt, after the others.
   * @param limit rows per page
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page
   */
  @Get('by-assignee/chronic-spikes')
  public async listAssigneeChronicSpikes(@Query() limit = 10, @Query() cursor?: string): Promise<CostChronicList> {
    return this.s.costGuard.chronicList('assignee', { limit, cursor });
  }

  /** Mutes the member's cost spike for the rest of today (event `assignee.cost_spike_acked`). 404 for an unknown member. */
  @Post('by-assignee/{assigneeId}/cost-spike-ack')
  public async ackAssigneeCostSpike(@Path() assigneeId: string): Promise<CostAck> {
    return this.s.costGuard.ackOne('assignee', 'spike', assigneeId);
  }

  /** Bulk cost-spike ack of 1-50 members; unknown ids in `notFound`; one event per call. */
  @Post('by-assignee/cost-spike-ack/bulk')
  public async ackAssigneeCostSpikes(@Body() body: AssigneeIdsBody): Promise<CostAckBulkResult> {
    return this.s.costGuard.ackMany('assignee', 'spike', body.assigneeUserIds, 'assigneeUserIds');
  }

  /** Mutes the member's chronic warning for 7 days (event `assignee.chronic_warning_acked`). 404 for an unknown member. */
  @Post('by-assignee/{assigneeId}/chronic-ack')
  public async ackAssigneeChronic(@Path() assigneeId: string): Promise<CostAck> {
    return this.s.costGuard.ackOne('assignee', 'chronic', assigneeId);
  }

  /** Bulk chronic ack of 1-50 members; unknown ids in `notFound`; one event per call. */
  @Post('by-assignee/chronic-ack/bulk')
  public async ackAssigneeChronics(@Body() body: AssigneeIdsBody): Promise<CostAckBulkResult> {
    return this.s.costGuard.ackMany('assignee', 'chronic', body.assigneeUserIds, 'assigneeUserIds');
  }

  /**
   * Sources with consecutiveSpikeDays at least the workspace's sourceChronicThresholdDays (default 3);
   * rows carry today, baseline and spikeRatio when the source also spikes today (else null), and
   * paused when sourceChronicSpikeAction `pause` stopped its polling.
   * @param limit rows per page
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page
   */
  @Get('by-source/chronic-spikes')
  public async listSourceChronicSpikes(@Query() limit = 10, @Query() cursor?: string): Promise<CostChronicList> {
    return this.s.costGuard.chronicList('source', { limit, cursor });
  }

  /**
   * Tags some task carries whose spend today (each task's full cost to every tag it carries) spikes;
   * the `untagged` bucket is excluded. Rows carry consecutiveSpikeDays, ackedAt and paused
   * (tagCostSpikeAction `pause`: the tag's tasks are ranked last by the loop until acknowledged).
   * @param limit rows per page
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page
   */
  @Get('by-tag/spikes')
  public async listTagCostSpikes(@Query() limit = 10, @Query() cursor?: string): Promise<CostSpikeList> {
    return this.s.costGuard.spikeList('tag', { limit, cursor });
  }

  /**
   * Tags spiking 3 or more consecutive days; chronic-acked ones stay listed with chronicAckedAt, after the others.
   * @param limit rows per page
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page
   */
  @Get('by-tag/chronic-spikes')
  public async listTagChronicSpikes(@Query() limit = 10, @Query() cursor?: string): Promise<CostChronicList> {
    return this.s.costGuard.chronicList('tag', { limit, cursor });
  }

  /** Mutes the tag's cost spike for the rest of today and lifts its pause (event `tag.cost_spike_acked`). 404 for a tag no task carries and that never spent. */
  @Post('by-tag/{tag}/cost-spike-ack')
  public async ackTagCostSpike(@Path() tag: string): Promise<CostAck> {
    return this.s.costGuard.ackOne('tag', 'spike', tag);
  }

  /** Bulk cost-spike ack of 1-50 tags; unknown tags in `notFound`; one event per call. */
  @Post('by-tag/cost-spike-ack/bulk')
  public async ackTagCostSpikes(@Body() body: TagsBody): Promise<CostAckBulkResult> {
    return this.s.costGuard.ackMany('tag', 'spike', body.tags, 'tags');
  }

  /** Mutes the tag's chronic warning for 7 days (event `tag.chronic_warning_acked`). 404 for an unknown tag. */
  @Post('by-tag/{tag}/chronic-ack')
  public async ackTagChronic(@Path() tag: string): Promise<CostAck> {
    return this.s.costGuard.ackOne('tag', 'chronic', tag);
  }

  /** Bulk chronic ack of 1-50 tags; unknown tags in `notFound`; one event per call. */
  @Post('by-tag/chronic-ack/bulk')
  public async ackTagChronics(@Body() body: TagsBody): Promise<CostAckBulkResult> {
    return this.s.costGuard.ackMany('tag', 'chronic', body.tags, 'tags');
  }

  /** Chronic acks of tags, sources and assignees that still hold (stamps older than 7 days left out), newest first. */
  @Get('chronic-acks')
  public async listChronicAcks(): Promise<{ acks: ChronicAckRow[] }> {
    return { acks: await this.s.costGuard.chronicAcks() };
  }
}
