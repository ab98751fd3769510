import type { WorkspaceTable } from '../../../db/schema';
import type { EventName } from '../catalog/events';
import type { CostChronicData, CostSpikeData } from '../catalog/event-payloads';
import { microToCents, microToUsd } from '../cost/rules';
import type { Day } from '../../core/workspace-time';
import { BASELINE_DAYS, CHRONIC_DAYS, spikeRatio, type GuardDimension } from './rules';

/**
 * What the detector raises: the alerts a run found new (one per entity per day and kind, none while
 * acked), their events and the per-dimension settings (pause action, chronic threshold).
 */

/** A new alert from one detector run: the payload of its event plus its kind. */
export type CostAlert = ({ kind: 'cost_spike' } & CostSpikeData) | ({ kind: 'chronic_warning' } & CostChronicData);

export const SPIKE_EVENTS = {
  task: 'task.cost_spike',
  source: 'source.cost_spike',
  tag: 'tag.cost_spike',
  assignee: 'assignee.cost_spike',
  memory: 'memory.cost_spike',
} as const satisfies Record<GuardDimension, EventName>;

export const CHRONIC_EVENTS = {
  source: 'source.chronic_warning',
  tag: 'tag.chronic_warning',
  assignee: 'assignee.chronic_warning',
  memory: 'memory.chronic_warning',
} as const satisfies Record<Exclude<GuardDimension, 'task'>, EventName>;

export const SPIKE_ACK_EVENTS = {
  task: 'task.cost_spike_acked',
  source: 'source.cost_spike_acked',
  tag: 'tag.cost_spike_acked',
  assignee: 'assignee.cost_spike_acked',
  memory: 'memory.cost_spike_acked',
} as const satisfies Record<GuardDimension, EventName>;

export const CHRONIC_ACK_EVENTS = {
  source: 'source.chronic_warning_acked',
  tag: 'tag.chronic_warning_acked',
  assignee: 'assignee.chronic_warning_acked',
  memory: 'memory.chronic_warning_acked',
} as const satisfies Record<Exclude<GuardDimension, 'task'>, EventName>;

/** Whether a spike of this dimension pauses the entity (workspace spike-action settings). */
export function pausesOnSpike(ws: Pick<WorkspaceTable, 'taskCostSpikeAction' | 'sourceCostSpikeAction' | 'tagCostSpikeAction'>, d: GuardDimension): boolean {
  if (d === 'task') return ws.taskCostSpikeAction === 'pause';
  if (d === 'source') return ws.sourceCostSpikeAction === 'pause';
  if (d === 'tag') return ws.tagCostSpikeAction === 'pause';
  return false;
}

/** Whether a chronic streak pauses the entity (sources only: sourceChronicSpikeAction). */
export const pausesOnChronic = (ws: Pick<WorkspaceTable, 'sourceChronicSpikeAction'>, d: GuardDimension): boolean => d === 'source' && ws.sourceChronicSpikeAction === 'pause';

/** Consecutive spike days that make a streak chronic: the source setting for sources, else 3. */
export const chronicThreshold = (ws: Pick<WorkspaceTable, 'sourceChronicThresholdDays'>, d: GuardDimension): number => (d === 'source' ? ws.sourceChronicThresholdDays : CHRONIC_DAYS);

/** The figures every spike row and alert carries. */
export function spikeFigures(todayMicro: number, previous7SumMicro: number) {
  const baselineMicro = previous7SumMicro / BASELINE_DAYS;
  return {
    todayUsd: microToUsd(todayMicro),
    todayCents: microToCents(todayMicro),
    baselineUsd: microToUsd(Math.round(baselineMicro)),
    baselineCents: microToCents(baselineMicro),
    spikeRatio: spikeRatio(todayMicro, previous7SumMicro),
  };
}

export function spikeData(d: GuardDimension, key: string, label: string, day: Day, todayMicro: number, previous7SumMicro: number, streak: number, paused: boolean): CostSpikeData {
  return { dimension: d, key, label, day, ...spikeFigures(todayMicro, previous7SumMicro), consecutiveSpikeDays: streak, paused };
}
