import { Body, Controller, Path, Post, Route, Security, Tags } from '@tsoa/runtime';
import type { CostAck, CostAckBulkResult } from '../../domain/cost-guard/acks';
import type { Services } from '../../services';

export interface TaskIdsBody {
  taskIds: string[];
}

/**
 * Task cost-spike acks (the list is GET /tasks/cost-spikes). An ack mutes the task's spike for the
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
