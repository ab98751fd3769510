import type { Db } from '../../../db/connection';
import type { Clock } from '../../core/clock';
import { dayOf } from '../../core/workspace-time';
import { readWorkspace } from '../workspace/workspace-store';
import { acknowledgeMany, acknowledgeOne, activeChronicAcks, type AckKind, type ChronicAckRow, type CostAck, type CostAckBulkResult } from './acks';
import type { CostAlert } from './alerts';
import { CostSpikeDetector } from './detector';
import {
  ASSIGNEE_CHRONIC_LIST,
  ASSIGNEE_SPIKES_LIST,
  MEMORY_CHRONIC_LIST,
  MEMORY_SPIKES_LIST,
  SOURCE_CHRONIC_LIST,
  SOURCE_SPIKES_LIST,
  TAG_CHRONIC_LIST,
  TAG_SPIKES_LIST,
  TASK_SPIKES_LIST,
  type GuardDimension,
} from './rules';
import { chronicList, spikeList, type CostChronicList, type CostSpikeList, type MemoryCostSpikeList } from './spike-lists';

export interface CostGuardDeps {
  db: Db;
  clock: Clock;
  /** New alerts of each detector run, after commit (the desktop turns them into notifications). */
  onAlert?: (alerts: CostAlert[]) => void;
}

type ListQuery = { limit?: number; cursor?: string };

const SPIKE_LISTS = { task: TASK_SPIKES_LIST, source: SOURCE_SPIKES_LIST, tag: TAG_SPIKES_LIST, assignee: ASSIGNEE_SPIKES_LIST, memory: MEMORY_SPIKES_LIST } as const;
const CHRONIC_LISTS = { source: SOURCE_CHRONIC_LIST, tag: TAG_CHRONIC_LIST, assignee: ASSIGNEE_CHRONIC_LIST, memory: MEMORY_CHRONIC_LIST } as const;

/**
 * Cost guardrails: the spike detector (after cycles and on a schedule), the spike and chronic
 * lists of every dimension, and the acks. Controllers and the job call this; see detector.ts.
 */
export class CostGuardService {
  readonly detector: CostSpikeDetector;
  /** What the last scheduled look saw (last finished run and workspace day): unchanged means nothing to detect. */
  private lastLook: string | null = null;

  constructor(private readonly d: CostGuardDeps) {
    this.detector = new CostSpikeDetector(d);
  }

  /** One detector run now (after a cycle, in tests). Returns the new alerts. */
  detectSpikes(): Promise<CostAlert[]> {
    return this.detector.detect();
  }

  /**
   * The scheduled look: runs the detector when a cycle finished since the last look (spend only
   * changes with cycles) or the workspace day turned (yesterday closes, streaks end); else nothing.
   */
  async detectIfChanged(): Promise<CostAlert[]> {
    const { db, clock } = this.d;
    const ws = await readWorkspace(db);
    // The newest run by the runs_started index; its finish (or a newer run) changes the look.
    const last = await db.selectFrom('runs').select(['id', 'finishedAt']).orderBy('startedAt', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
    const look = `${last?.id ?? ''}|${last?.finishedAt ?? ''}|${dayOf(clock.now(), ws.timezone)}`;
    if (look === this.lastLook) return [];
    const alerts = await this.detector.detect();
    this.lastLook = look;
    return alerts;
  }

  /** Entities spiking today (GET /tasks/cost-spikes, /sources/cost-spikes, /cost/by-assignee/spikes, /cost/by-tag/spikes). */
  async spikeList(dimension: Exclude<GuardDimension, 'memory'>, query: ListQuery): Promise<CostSpikeList> {
    const p = await spikeList(this.d.db, this.d.clock, dimension, SPIKE_LISTS[dimension], query);
    return { spikes: p.rows, nextCursor: p.nextCursor };
  }

  /** GET /memory/cost-spikes: rows also carry costSpikeAckedAt. */
  async memorySpikeList(query: ListQuery): Promise<MemoryCostSpikeList> {
    const p = await spikeList(this.d.db, this.d.clock, 'memory', SPIKE_LISTS.memory, query);
    return { spikes: p.rows.map((r) => ({ ...r, costSpikeAckedAt: r.ackedAt })), nextCursor: p.nextCursor };
  }

  /** Chronic streaks; memory leaves chronic-acked entries out (spec), the others list them with their ack. */
  async chronicList(dimension: Exclude<GuardDimension, 'task'>, query: ListQuery): Promise<CostChronicList> {
    const p = await chronicList(this.d.db, this.d.clock, dimension, CHRONIC_LISTS[dimension], query, dimension === 'memory');
    return { chronic: p.rows, nextCursor: p.nextCursor };
  }

  ackOne(dimension: GuardDimension, kind: AckKind, key: string): Promise<CostAck> {
    return acknowledgeOne(this.d.db, this.d.clock, dimension, kind, key);
  }

  ackMany(dimension: GuardDimension, kind: AckKind, ids: unknown, field: string): Promise<CostAckBulkResult> {
    return acknowledgeMany(this.d.db, this.d.clock, dimension, kind, ids, field);
  }

  chronicAcks(): Promise<ChronicAckRow[]> {
    return activeChronicAcks(this.d.db, this.d.clock);
  }
}
