import type { Db } from '../../db/connection';
import type { Clock } from '../core/clock';

export interface Job {
  /** Stable name: the key of the job's durable state. */
  name: string;
  /** Minimum time between two runs: one of the named intervals below, or a job's own named constant. */
  everyMs: number;
  run(): Promise<void>;
}

/** The intervals jobs run at, by name, so a cadence reads as what it is. */
export const EVERY_15_SECONDS = 15_000;
export const EVERY_MINUTE = 60_000;
export const EVERY_HOUR = 60 * EVERY_MINUTE;
export const EVERY_DAY = 24 * EVERY_HOUR;

export interface JobState {
  name: string;
  lastRunAt: string | null;
  lastFinishedAt: string | null;
  lastError: string | null;
  runCount: number;
}

export interface Logger {
  error(message: string): void;
}

/**
 * One in-process scheduler. Every due job starts on its own: a long run (a feed poll round, a loop
 * cycle) never delays another job, and a job that is still running is never started twice.
 * A job's last run is stored before it runs, so a restart never runs it again early. A clock that
 * moves forward (a laptop waking after hours) finds each job due once, not once per missed
 * interval; one that moves back delays a job by at most one interval (runIfDue).
 * Time decisions read the injected clock; the real timer only decides how often to look.
 */
/** What holds the scheduler's work (a full disk: server/core/disk-space.ts) and hears its failures. */
export interface SchedulerGuard {
  /** True while no job may start (looked at before each round). */
  held?: () => boolean;
  /** Every failure of a job or of the scheduler's own bookkeeping. */
  onFailure?: (err: unknown) => void;
}

export class Scheduler {
  private readonly jobs = new Map<string, Job>();
  /** Runs in flight, by job name: the guard against overlap, and what stop() waits for. */
  private readonly running = new Map<string, Promise<boolean>>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private started = false;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: Logger = console,
    private readonly guard: SchedulerGuard = {},
  ) {}

  register(job: Job): void {
    if (this.jobs.has(job.name)) throw new Error(`job ${job.name} registered twice`);
    this.jobs.set(job.name, job);
  }

  registerAll(jobs: readonly Job[]): void {
    for (const job of jobs) this.register(job);
  }

  /**
   * Runs a job soon, outside its cadence, when the scheduler is running (e.g. the first poll of
   * a feed the operator just added). Does nothing when the timer is off, as in tests.
   */
  nudge(name: string): void {
    if (!this.started || this.stopped) return;
    void this.runNow(name).catch((err: unknown) => this.log.error(`job ${name} failed: ${message(err)}`));
  }

  start(pollMs = 5_000): void {
    this.started = true;
    this.stopped = false;
    const loop = () => {
      if (this.stopped) return;
      // Starts what is due and looks again after pollMs, without waiting for the runs to end.
      this.startDue().catch((err: unknown) => this.log.error(`scheduler tick failed: ${message(err)}`));
      this.timer = setTimeout(loop, pollMs);
    };
    this.timer = setTimeout(loop, 0);
  }

  /** Stops looking for due jobs and waits for the runs in flight (by timer, tick or nudge). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }

  /**
   * Starts every job that is due now, side by side, and waits for them. Tests call this after
   * moving the clock; it returns the names of the jobs that ran.
   */
  async tick(): Promise<string[]> {
    const runs = await this.startDue();
    const ran = await Promise.all(runs.map(async ([name, run]) => ((await run) ? name : null)));
    return ran.filter((name): name is string => name !== null);
  }

  /** Runs the named job now, whether due or not (still never twice at once). */
  async runNow(name: string): Promise<boolean> {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`no job ${name}`);
    return this.launch(job, true);
  }

  async states(): Promise<JobState[]> {
    return this.db.selectFrom('schedulerJobs').selectAll().orderBy('name').execute();
  }

  /** When the job last finished, in this process or an earlier one on the same database; null before its first run. */
  async lastFinishedAt(name: string): Promise<Date | null> {
    const state = await this.db.selectFrom('schedulerJobs').select('lastFinishedAt').where('name', '=', name).executeTakeFirst();
    return state?.lastFinishedAt ? new Date(state.lastFinishedAt) : null;
  }

  /** Starts each registered job that is not running; each decides for itself whether it is due. */
  private async startDue(): Promise<[string, Promise<boolean>][]> {
    const runs: [string, Promise<boolean>][] = [];
    if (this.guard.held?.()) return runs;
    for (const job of this.jobs.values()) {
      if (this.stopped) break;
      if (!this.running.has(job.name)) runs.push([job.name, this.launch(job, false)]);
    }
    return runs;
  }

  /** Claims the job synchronously (two callers at once cannot both start it), then runs it if due. */
  private launch(job: Job, force: boolean): Promise<boolean> {
    if (this.running.has(job.name)) return Promise.resolve(false);
    const run = this.runIfDue(job, force)
      // A failure outside the job itself (the database) is logged; it must not reject into the timer.
      .catch((err: unknown) => {
        this.guard.onFailure?.(err);
        this.log.error(`scheduler could not run ${job.name}: ${message(err)}`);
        return false;
      })
      .finally(() => this.running.delete(job.name));
    this.running.set(job.name, run);
    return run;
  }

  private async runIfDue(job: Job, force: boolean): Promise<boolean> {
    const now = this.clock.now();
    const state = await this.db.selectFrom('schedulerJobs').selectAll().where('name', '=', job.name).executeTakeFirst();
    const startedAt = now.toISOString();
    if (!force && state?.lastRunAt && state.lastRunAt > startedAt) {
      // The clock went back past the last run. Measured as it is, the job would wait until the clock
      // caught up (a year for a clock put right after running a year ahead); run now, it would run
      // twice for one interval. The last run counts as now instead: the next one comes one interval
      // after the jump, and a restart reads the same.
      await this.db.updateTable('schedulerJobs').set({ lastRunAt: startedAt }).where('name', '=', job.name).execute();
      return false;
    }
    if (!force && state?.lastRunAt && now.getTime() - new Date(state.lastRunAt).getTime() < job.everyMs) return false;
    await this.db
      .insertInto('schedulerJobs')
      .values({ name: job.name, lastRunAt: startedAt, lastFinishedAt: null, lastError: null, runCount: 1 })
      .onConflict((oc) => oc.column('name').doUpdateSet((eb) => ({ lastRunAt: startedAt, runCount: eb('schedulerJobs.runCount', '+', 1) })))
      .execute();
    let error: string | null = null;
    try {
      await job.run();
    } catch (err) {
      error = message(err);
      this.guard.onFailure?.(err);
      this.log.error(`job ${job.name} failed: ${error}`);
    }
    await this.db
      .updateTable('schedulerJobs')
      .set({ lastFinishedAt: this.clock.now().toISOString(), lastError: error })
      .where('name', '=', job.name)
      .execute();
    return true;
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
