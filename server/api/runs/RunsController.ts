import { Controller, Get, Path, Post, Query, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { WhenRunning } from '../../domain/loop/loop-service';
import type { Run, RunList } from '../../domain/loop/run-record';
import type { Services } from '../../services';

@Route('api/v1/runs')
@Tags('Loop runs')
@Security('bearer')
export class RunsController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Recent loop cycles, newest first: trigger, status, engine and model, durations, token spend
   * and estimated cost, what each read (signals, tasks, memory, notes) and produced (tasks
   * created and updated, outputs, memory), the error of a failed cycle and the reason of a
   * skipped one. A cycle under way is listed with status `running`.
   * @param limit runs per page, 1-100 (default 25)
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page, as it was served
   */
  @Get()
  @Response<ErrorBody>('422', 'limit or cursor is invalid')
  public async listRuns(@Query() limit = 25, @Query() cursor?: string): Promise<RunList> {
    return this.s.loop.list({ limit, cursor });
  }

  /**
   * Runs one loop cycle now (the Run now button) and answers with its run record once the cycle
   * has finished: `completed`, or `failed` with the engine's or provider's message in
   * `errorMessage` (a failed cycle writes nothing but its record; one cancelled meanwhile through
   * POST /runs/{runId}/cancel answers `failed` with `cancelledAt` set). The request waits for the
   * cycle; other requests are served meanwhile. A manual cycle restarts the loop interval. It
   * runs whatever the loop state (a manual cycle is the operator's own decision) but not past
   * the daily cost cap.
   *
   * While a cycle is already running: `whenRunning=refuse` (default) answers 409 `run_in_progress`;
   * `whenRunning=wait` waits for that cycle and answers its record (no second cycle is started),
   * as the Run now button does.
   * @param whenRunning `refuse` (default) or `wait`
   */
  @Post()
  @Response<ErrorBody>('409', '`run_in_progress`: a cycle is already running and whenRunning is `refuse` (GET /runs lists it as `running`); `cost_cap_reached`: today\'s spend has reached the daily cost cap (nothing is written)')
  public async runCycle(@Query() whenRunning: WhenRunning = 'refuse'): Promise<Run> {
    return this.s.loop.runNow({ whenRunning });
  }

  /**
   * Cancels the cycle under way (the Cancel button of the header and the Runs page) and answers
   * with its run record once it has stopped: status `failed`, `cancelledAt` set, nothing applied
   * (no task, output, memory or triage is written); it costs only what the provider billed before
   * it stopped (`inputTokens`, `outputTokens` and `estimatedCostUsd` say what). The engine stops at
   * once: an OpenAI-compatible request is aborted, the built-in engine stops between tasks. A Run
   * now request waiting on the cycle gets the same record. The activity log and `run.failed` say
   * "cancelled".
   *
   * Too late: once the cycle is applying its results (GET /stats `cycle.phase` is `applying`), its
   * one transaction is not interrupted and the cancel answers 409 `run_applying`; the cycle then
   * completes. The same answer comes when the cancel reached the cycle just as it began applying.
   */
  @Post('{runId}/cancel')
  @Response<ErrorBody>('404', '`run_not_found`: no run has this id')
  @Response<ErrorBody>('409', '`run_not_running`: the cycle has already ended (completed, failed or skipped); `run_applying`: the cycle is applying its results, too late to cancel (it completes)')
  public async cancelRun(@Path() runId: string): Promise<Run> {
    return this.s.loop.cancel(runId);
  }

  /** One loop cycle's record. */
  @Get('{runId}')
  @Response<ErrorBody>('404', '`run_not_found`: no run has this id')
  public async getRun(@Path() runId: string): Promise<Run> {
    return this.s.loop.get(runId);
  }
}
