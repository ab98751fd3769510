import { Body, Controller, Get, Path, Post, Query, Route, Security, Tags } from '@tsoa/runtime';
import type { CostAck, CostAckBulkResult } from '../../domain/cost-guard/acks';
import type { CostSpikeList } from '../../domain/cost-guard/spike-lists';
import type { Services } from '../../services';
import type { SourceIdsBody } from '../sources/SourcesController';

/**
 * Source cost spikes: the list (GET /sources/cost-spikes) and the spike and chronic acks (the chronic
 * list is GET /cost/by-source/chronic-spikes).
 * A spike ack mutes the source's spike for the rest of the workspace day and lifts its spike pause
 * (sourceCostSpikeAction `pause`: the feed poller skips it); a chronic ack mutes the chronic warning
 * for 7 days and lifts its chronic pause (sourceChronicSpikeAction `pause`). Acking a source that is
 * not spiking is allowed.
 */
@Route('api/v1/sources')
@Tags('Sources')
@Security('bearer')
export class SourceCostSpikeController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Sources whose cost today (each task's cost split equally across its sources) is at least 2 times
   * their trailing 7-day daily average and at least 0.50 USD; unacknowledged first. `paused`: with
   * sourceCostSpikeAction `pause` the feed poller skips the source until its spike is acknowledged.
   * @param limit rows per page
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page
   */
  @Get('cost-spikes')
  public async listSourceCostSpikes(@Query() limit = 10, @Query() cursor?: string): Promise<CostSpikeList> {
    return this.s.costGuard.spikeList('source', { limit, cursor });
  }

  /** Mutes the source's cost spike for the rest of today (event `source.cost_spike_acked`). 404 for an unknown source. */
  @Post('{id}/cost-spike-ack')
  public async ackSourceCostSpike(@Path() id: string): Promise<CostAck> {
    return this.s.costGuard.ackOne('source', 'spike', id);
  }

  /** Bulk cost-spike ack of 1-50 sources; unknown ids in `notFound`; one event per call. */
  @Post('cost-spike-ack/bulk')
  public async ackSourceCostSpikes(@Body() body: SourceIdsBody): Promise<CostAckBulkResult> {
    return this.s.costGuard.ackMany('source', 'spike', body.sourceIds, 'sourceIds');
  }

  /** Mutes the source's chronic warning for 7 days (event `source.chronic_warning_acked`). 404 for an unknown source. */
  @Post('{sourceId}/chronic-ack')
  public async ackSourceChronic(@Path() sourceId: string): Promise<CostAck> {
    return this.s.costGuard.ackOne('source', 'chronic', sourceId);
  }

  /** Bulk chronic ack of 1-50 sources; unknown ids in `notFound`; one event per call. */
  @Post('chronic-ack/bulk')
  public async ackSourceChronics(@Body() body: SourceIdsBody): Promise<CostAckBulkResult> {
    return this.s.costGuard.ackMany('source', 'chronic', body.sourceIds, 'sourceIds');
  }
}
