import { Body, Controller, Get, Path, Post, Query, Route, Security, Tags } from '@tsoa/runtime';
import type { CostAck, CostAckBulkResult } from '../../domain/cost-guard/acks';
import type { CostChronicList, MemoryCostSpikeList } from '../../domain/cost-guard/spike-lists';
import type { Services } from '../../services';

export interface MemoryIdsBody {
  memoryIds: string[];
}

/**
 * Memory cost spikes and chronic warnings: the lists (GET /memory/cost-spikes, GET /memory/chronic-warnings) and their acks.
 * A spike ack sets costSpikeAckedAt: the detector, the desktop notification and the event skip the
 * entry for the rest of the workspace day. A chronic ack sets chronicAckedAt for 7 days.
 */
@Route('api/v1/memory')
@Tags('Memory')
@Security('bearer')
export class MemoryCostSpikeController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Live entries whose attributed cost today is at least 2 times their trailing 7-day daily average
   * and at least 0.50 USD; pinned entries and importance 9 or higher excluded; rows carry
   * costSpikeAckedAt (today's ack). Unacknowledged first, then the highest spend.
   * @param limit rows per page
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page
   */
  @Get('cost-spikes')
  public async listMemoryCostSpikes(@Query() limit = 10, @Query() cursor?: string): Promise<MemoryCostSpikeList> {
    return this.s.costGuard.memorySpikeList({ limit, cursor });
  }

  /**
   * Entries whose consecutiveSpikeDays reached 3 (counting while the last spike was today or
   * yesterday) and that are not chronic-acked within 7 days; the longest streak first.
   * @param limit rows per page
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page
   */
  @Get('chronic-warnings')
  public async listMemoryChronicWarnings(@Query() limit = 10, @Query() cursor?: string): Promise<CostChronicList> {
    return this.s.costGuard.chronicList('memory', { limit, cursor });
  }

  /** Sets costSpikeAckedAt for the rest of today; emits `memory.cost_spike_acked`. 404 for an unknown entry. */
  @Post('{memoryId}/cost-spike-ack')
  public async ackMemoryCostSpike(@Path() memoryId: string): Promise<CostAck> {
    return this.s.costGuard.ackOne('memory', 'spike', memoryId);
  }

  /** Bulk cost-spike ack of 1-50 entries; unknown ids in `notFound`; one `memory.cost_spike_acked` per call. */
  @Post('cost-spike-ack/bulk')
  public async ackMemoryCostSpikes(@Body() body: MemoryIdsBody): Promise<CostAckBulkResult> {
    return this.s.costGuard.ackMany('memory', 'spike', body.memoryIds, 'memoryIds');
  }

  /** Sets chronicAckedAt for 7 days; emits `memory.chronic_warning_acked`. 404 for an unknown entry. */
  @Post('{memoryId}/chronic-ack')
  public async ackMemoryChronic(@Path() memoryId: string): Promise<CostAck> {
    return this.s.costGuard.ackOne('memory', 'chronic', memoryId);
  }

  /** Bulk chronic ack of 1-50 entries; unknown ids in `notFound`; one `memory.chronic_warning_acked` per call. */
  @Post('chronic-ack/bulk')
  public async ackMemoryChronics(@Body() body: MemoryIdsBody): Promise<CostAckBulkResult> {
    return this.s.costGuard.ackMany('memory', 'chronic', body.memoryIds, 'memoryIds');
  }
}
