import type { Schema } from '../../api/client';

/** Task rows as the API answers them, for the renderer tests of this area. */

export function taskRow(id: string, title: string, over: Partial<Schema<'Task'>> = {}): Schema<'Task'> {
  return {
    id,
    title,
    summary: `Summary of ${title}`,
    kind: 'research',
    deliverableType: 'brief',
    priority: 'normal',
    dueAt: null,
    status: 'queued',
    assignedToUserId: null,
    goal: '',
    context: '',
    pinned: false,
    tags: [],
    blockedByTaskIds: [],
    blocked: false,
    sourceSignalIds: [],
    sourceMemoryIds: [],
    archiveWarnedAt: null,
    archivedAt: null,
    archivedBySweep: false,
    cost: { totalInputTokens: 0, totalOutputTokens: 0, estimatedCostUsd: 0, sessionCount: 0, costPerSessionUsd: 0 },
    createdAt: '2026-03-10T11:00:00.000Z',
    updatedAt: '2026-03-10T11:00:00.000Z',
    ...over,
  };
}

export function taskDetail(id: string, title: string, over: Partial<Schema<'TaskDetail'>> = {}): Schema<'TaskDetail'> {
  return {
    ...taskRow(id, title),
    assignee: null,
    blockers: [],
    notesCount: 0,
    share: { workLogShared: false, publicWorkLogToken: null, timelineShared: false, publicTimelineToken: null },
    dailyCostHistory: [],
    ...over,
  };
}
