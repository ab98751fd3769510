import { Body, Controller, Path, Post, Route, Security, Tags } from '@tsoa/runtime';
import type { CostAck, CostAckBulkResult } from '../../domain/cost-guard/acks';
import type { Services } from '../../services';
import type { SourceIdsBody } from '../sources/SourcesController';

/**
 * Source cost-spike and chronic acks (lists: GET /sources/cost-spikes, GET /cost/by-source/chronic-spikes).
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
