import type { Db } from '../../../db/connection';
import type { Clock } from '../../core/clock';
import type { TaskService } from '../tasks/task-service';
import { insights, type Insights } from './insights';
import { personalInbox, type PersonalInbox } from './personal-inbox';
import { reactionsSummary, type ReactionsSummary } from './reactions-summary';
import { workspaceSummary, type WorkspaceSummary } from './summary';
import { todaySnapshot, type TodaySnapshot } from './today';
import { whatsNew, type WhatsNew } from './whats-new';

export type { Insights, PersonalInbox, ReactionsSummary, TodaySnapshot, WhatsNew, WorkspaceSummary };

/** The operator's overview reads (Home page): read-only, each a handful of indexed aggregates. */
export class OverviewService {
  constructor(private readonly d: { db: Db; clock: Clock; tasks: TaskService }) {}

  summary = (): Promise<WorkspaceSummary> => workspaceSummary(this.d.db);
  today = (): Promise<TodaySnapshot> => todaySnapshot(this.d.db, this.d.clock);
  whatsNew = (since?: string): Promise<WhatsNew> => whatsNew(this.d.db, this.d.clock, since);
  personalInbox = (query: { userId?: string; thresholdDays?: number }): Promise<PersonalInbox> => personalInbox(this.d.db, this.d.clock, this.d.tasks, query);
  insights = (query: { limit?: number }): Promise<Insights> => insights(this.d.db, this.d.clock, query);
  reactionsSummary = (query: { topLimit?: number }): Promise<ReactionsSummary> => reactionsSummary(this.d.db, query);
}
