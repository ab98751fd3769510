import type { Db } from '../../../db/connection';
import { onTableWrite } from '../../../db/statement-cache';
import type { Clock } from '../../core/clock';
import { watchOverdue, type OverdueWatchState, type ReviewAttentionCounts } from '../review/overdue-watch';
import type { WorkspaceService } from '../workspace/workspace-service';
import { queueItems } from './review-queue';

export type { ReviewAttentionCounts } from '../review/overdue-watch';

/** A change message lists at most this many newly overdue outputs (newlyOverdueTotal counts them all). */
export const MAX_NEWLY_OVERDUE_LISTED = 10;

/** What the desktop is told when the review queue's attention changed. */
export interface ReviewAttentionChange extends ReviewAttentionCounts {
  /** Outputs that just crossed into overdue, oldest first, at most MAX_NEWLY_OVERDUE_LISTED. */
  newlyOverdue: { id: string; title: string }[];
  /** How many crossed into overdue in this change (may exceed the list). */
  newlyOverdueTotal: number;
}

export type ReviewAttentionListener = (change: ReviewAttentionChange) => void;

export interface ReviewAttentionWatcherOptions {
  db: Db;
  clock: Clock;
  workspace: WorkspaceService;
  /** When the previous process last looked (startDesk reads the watch job's last finished run); null if never. */
  lastLookedAt?: () => Promise<Date | null>;
  log?: { warn(obj: object, msg: string): void };
}

/**
 * Watches the review queue for the desktop (tray count, badge, notifications): its attention counts
 * and the outputs that newly cross into overdue (watchOverdue, over the queue's own projection and
 * the workspace approval policy). Time alone moves outputs into overdue, so the `review.attention`
 * job looks every minute; once someone listens, every write to `artifacts` (a new output, a
 * decision) also triggers a look. Looks run one at a time; listeners hear only changes.
 */
export class ReviewAttentionWatcher {
  private state: OverdueWatchState | null = null;
  /** Newly overdue outputs found while nobody listened, oldest first (only ones still ready and overdue-known). */
  private unheard: string[] = [];
  private readonly listeners = new Set<{ fn: ReviewAttentionListener; told: boolean }>();
  private tail: Promise<unknown> = Promise.resolve();
  /** A look queued but not started: callers in the meantime share it (it will see their writes). */
  private queued: Promise<ReviewAttentionChange | null> | null = null;
  private stopped = false;
  private soon = false;
  private unsubscribeWrites: (() => void) | null = null;
  private readonly lookSoon: () => void;

  constructor(private readonly options: ReviewAttentionWatcherOptions) {
    // Heard after the COMMIT, outside the writer's async context (db/statement-cache.ts), so a look
    // reads what was committed. Writes committed together (a bulk decision) get one look.
    this.lookSoon = () => {
      if (this.stopped || this.soon || this.queued) return;
      this.soon = true;
      setImmediate(() => {
        this.soon = false;
        void this.look().catch((err: unknown) => this.options.log?.warn({ err }, 'review attention look failed'));
      });
    };
  }

  /** The counts of the last look; null before the first. */
  get counts(): ReviewAttentionCounts | null {
    return this.state ? { ...this.state.counts } : null;
  }

  /**
   * Calls `listener` with every change from now on; it first hears the current counts (after a look).
   * The first listener also starts the looks after artifact writes. Returns an unsubscribe function.
   */
  onChange(listener: ReviewAttentionListener): () => void {
    const entry = { fn: listener, told: false };
    this.listeners.add(entry);
    this.unsubscribeWrites ??= onTableWrite(this.options.db, 'artifacts', this.lookSoon) ?? (() => undefined);
    void this.look()
      .then(() => {
        if (entry.told || !this.state || !this.listeners.has(entry)) return;
        entry.told = true;
        entry.fn({ ...this.state.counts, newlyOverdue: [], newlyOverdueTotal: 0 });
      })
      .catch((err: unknown) => this.options.log?.warn({ err }, 'review attention look failed'));
    return () => void this.listeners.delete(entry);
  }

  /** Looks now (after any look in flight); answers the change it announced, or null when nothing changed. */
  look(): Promise<ReviewAttentionChange | null> {
    if (this.queued) return this.queued;
    const next = this.tail.then(() => {
      this.queued = null;
      return this.lookOnce();
    });
    this.queued = next;
    this.tail = next.catch(() => undefined);
    return next;
  }

  /** No more looks; waits for the one in flight (startDesk calls this before closing the database). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribeWrites?.();
    this.unsubscribeWrites = null;
    await this.tail;
  }

  private async lookOnce(): Promise<ReviewAttentionChange | null> {
    if (this.stopped) return null;
    const { db, clock, workspace } = this.options;
    const now = clock.now();
    const policy = await workspace.approvalPolicy();
    const lastLookedAt = this.state === null && this.options.lastLookedAt ? await this.options.lastLookedAt() : null;
    const ready = await queueItems(db, 'ready');
    const step = watchOverdue(this.state, ready, now, policy, lastLookedAt);
    this.state = step.state;
    // News found while nobody listened (e.g. the job's first look after a restart, before the desktop
    // subscribed) waits for the first listener, as long as those outputs still wait.
    const kept = [...this.unheard.filter((id) => step.state.known.has(id)), ...step.newlyOverdue];
    const heard = this.listeners.size > 0;
    this.unheard = heard ? [] : kept;
    const newly = heard ? kept : step.newlyOverdue;
    if (!step.changed && newly.length === 0) return null;
    const listed = newly.slice(0, MAX_NEWLY_OVERDUE_LISTED);
    const rows = listed.length ? await db.selectFrom('artifacts').select(['id', 'title']).where('id', 'in', listed).execute() : [];
    const titles = new Map(rows.map((r) => [r.id, r.title]));
    const change: ReviewAttentionChange = {
      ...step.state.counts,
      // An output decided since the projection was read has no title here: it is no longer overdue news.
      newlyOverdue: listed.filter((id) => titles.has(id)).map((id) => ({ id, title: titles.get(id)! })),
      newlyOverdueTotal: newly.length,
    };
    for (const entry of [...this.listeners]) {
      entry.told = true;
      try {
        entry.fn(change);
      } catch (err) {
        this.options.log?.warn({ err }, 'a review attention listener failed');
      }
    }
    return change;
  }
}
