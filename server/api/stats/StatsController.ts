import { Controller, Get, Route, Security, Tags } from '@tsoa/runtime';
import type { DeskStats } from '../../domain/stats/stats-service';
import type { Services } from '../../services';

@Route('api/v1/stats')
@Tags('Loop runs')
@Security('bearer')
export class StatsController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * The desk at a glance (the header reads it): health score, runtime phase and next cycle time,
   * the last cycle, and the last 7 workspace days of cycles, signals, approvals and cost.
   *
   * Health score: 100 minus these penalties, never below 0 (each listed in `healthFactors`):
   * 10 per source in status `error` (at most 30); 5 per failed cycle in the last 7 days (at most
   * 25; a cycle the operator cancelled does not count); 3 per output waiting past the approval policy's overdue hours (at most 20); spend
   * against the daily cost cap: 15 at or above the cap, 5 from 80% (none without a cap).
   *
   * Phase: `running` while a cycle is under way, else `off` or `paused` (the loop state), else
   * `capped` when today's spend has reached the cap, else `idle`. nextCycleAt is null while off or
   * paused by hand; with a scheduled pause it is not before the pause ends; at the cap it is not
   * before the next workspace day.
   */
  @Get()
  public async getStats(): Promise<DeskStats> {
    return this.s.stats.stats();
  }
}
