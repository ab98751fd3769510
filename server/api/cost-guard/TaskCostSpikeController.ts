import { Body, Controller, Get, Path, Post, Query, Route, Security, Tags } from '@tsoa/runtime';
import type { CostAck, CostAckBulkResult } from '../../domain/cost-guard/acks';
import type { CostSpikeList } from '../../domain/cost-guard/spike-lists';
import type { Services } from '../../services';

export interface TaskIdsBody {
  taskIds: string[];
}

/**
 * Task cost spikes: the list (GET /tasks/cost-spikes) and the acks. An ack mutes the task's spike for the
 * rest of the workspace day and lifts its spike pause at once (taskCostSpikeAction `pause` ranks a
 * spiking task last in the loop until acknowledged). Acking a task that is not spiking is allowed.
 */
@Route('api/v1/tasks')
@Tags('Tasks')
@Security('bearer')
export class TaskCostSpikeController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Open tasks whose cost today is at least 2 times their trailing 7-day daily average and at least
   * 0.50 USD (workspace-timezone days); unacknowledged first, then the highest spend. `paused`: with
   * taskCostSpikeAction `pause` the loop ranks the task last until its spike is acknowledged
   * (POST /tasks/{id}/cost-spike-ack). Events `task.cost_spike` come from the detector.
   * @param limit rows per page
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page
   */
  @Get('cost-spikes')
  public async listTaskCostSpikes(@Query() limit = 10, @Query() cursor?: string): Promise<CostSpikeList> {
    return this.s.costGuard.spikeList('task', { limit, cursor });
  }

  /** Mutes the task's cost spike for the rest of today (event `task.cost_spike_acked`). 404 for an unknown task. */
  @Post('{id}/cost-spike-ack')
  public async ackTaskCostSpike(@Path() id: string): Promise<CostAck> {
    return this.s.costGuard.ackOne('task', 'spike', id);
  }

  /** Bulk cost-spike ack of 1-50 tasks; unknown ids in `notFound`; one `task.cost_spike_acked` per call. */
  @Post('cost-spike-ack/bulk')
  public async ackTaskCostSpikes(@Body() body: TaskIdsBody): Promise<CostAckBulkResult> {
    return this.s.costGuard.ackMany('task', 'spike', body.taskIds, 'taskIds');
  }
}
