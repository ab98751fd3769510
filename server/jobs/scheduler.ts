import type { Db } from '../../db/connection';
import type { Clock } from '../core/clock';

export interface Job {
  /** Stable name: the key of the job's durable state. */
  name: string;
  /** Minimum time between two runs. */
  everyMs: number;
  run(): Promise<void>;
}

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
 * One in-process scheduler. A job's last run is stored before it runs, so a restart never
 * runs it again early, and a job that is still running is never started twice.
 * Time decisions read the injected clock; the real timer only decides how often to look.
 */
export class Scheduler {
  private readonly jobs = new Map<string, Job>();
  private readonly running = new Set<string>();
  /** Runs started by nudge(), outside a tick: stop() waits for them too. */
  private readonly nudged = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private stopped = false;
  private started = false;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: Logger = console,
  ) {}

  register(job: Job): void {
    if (this.jobs.has(job.name)) throw new Error(`job ${job.name} registered twice`);
    this.jobs.set(job.name, job);
  }

  /**
   * Runs a job soon, outside its cadence, when the scheduler is running (e.g. the first poll of
   * a feed the operator just added). Does nothing when the timer is off, as in tests.
   */
  nudge(name: string): void {
    if (!this.started || this.stopped) return;
    const run = this.runNow(name)
      .catch((err: unknown) => this.log.error(`job ${name} failed: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => this.nudged.delete(run));
    this.nudged.add(run);
  }

  start(pollMs = 5_000): void {
    this.started = true;
    this.stopped = false;
    const loop = () => {
      if (this.stopped) return;
      // A failure outside a job (e.g. the database) is logged; it must not reject into the timer.
      this.ticking = this.tick()
        .then(
          () => undefined,
          (err: unknown) => this.log.error(`scheduler tick failed: ${err instanceof Error ? err.message : String(err)}`),
        )
        .finally(() => {
          this.ticking = null;
          if (!this.stopped) this.timer = setTimeout(loop, pollMs);
        });
    };
    this.timer = setTimeout(loop, 0);
  }

  /** Stops looking for due jobs and waits for the ones running now (by tick or by nudge). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await Promise.all([this.ticking, ...this.nudged]);
  }

  /** Runs every job that is due now, one after another. Tests call this after moving the clock. */
  async tick(): Promise<string[]> {
    const ran: string[] = [];
    for (const job of this.jobs.values()) {
      if (this.stopped) break;
      if (await this.runIfDue(job)) ran.push(job.name);
    }
    return ran;
  }

  /** Runs the named job now, whether due or not (still never twice at once). */
  async runNow(name: string): Promise<boolean> {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`no job ${name}`);
    return this.runIfDue(job, true);
  }

  private async runIfDue(job: Job, force = false): Promise<boolean> {
    if (this.running.has(job.name)) return false;
    // Claimed before the first await: two ticks (or a tick and runNow) at once cannot both start it.
    this.running.add(job.name);
    try {
      const now = this.clock.now();
      const state = await this.db.selectFrom('schedulerJobs').selectAll().where('name', '=', job.name).executeTakeFirst();
      if (!force && state?.lastRunAt && now.getTime() - new Date(state.lastRunAt).getTime() < job.everyMs) return false;
      const startedAt = now.toISOString();
      await this.db
        .insertInto('schedulerJobs')
        .values({ name: job.name, lastRunAt: startedAt, lastFinishedAt: null, lastError: null, runCount: 1 })
        .onConflict((oc) =>
          oc.column('name').doUpdateSet((eb) => ({ lastRunAt: startedAt, runCount: eb('schedulerJobs.runCount', '+', 1) })),
        )
        .execute();
      let error: string | null = null;
      try {
        await job.run();
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
        this.log.error(`job ${job.name} failed: ${error}`);
      }
      await this.db
        .updateTable('schedulerJobs')
        .set({ lastFinishedAt: this.clock.now().toISOString(), lastError: error })
        .where('name', '=', job.name)
        .execute();
      return true;
    } finally {
      this.running.delete(job.name);
    }
  }

  async states(): Promise<JobState[]> {
    return this.db.selectFrom('schedulerJobs').selectAll().orderBy('name').execute();
  }
}
