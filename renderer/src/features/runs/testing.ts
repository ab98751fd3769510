import type { Schema } from '../../api/client';

const counts = { signalsRead: 1, tasksRead: 0, memoryRead: 2, notesRead: 0, tasksCreated: 1, tasksUpdated: 0, artifactsCreated: 1, memoryCreated: 0 };

/** A completed manual cycle as GET /runs lists it (read one signal and two memory entries, made a task and an output); overrides win. */
export function aRun(id: string, overrides: Partial<Schema<'Run'>> = {}): Schema<'Run'> {
  return {
    id,
    trigger: 'manual',
    status: 'completed',
    engine: 'local',
    model: 'gpt-4o-mini',
    startedAt: '2026-03-10T11:58:00.000Z',
    finishedAt: '2026-03-10T11:58:01.200Z',
    durationMs: 1200,
    engineMs: 900,
    inputTokens: 1840,
    outputTokens: 620,
    estimatedCostUsd: 0.000648,
    read: { signalIds: ['sig_1'], taskIds: [], memoryIds: ['mem_1', 'mem_2'], noteIds: [] },
    produced: { createdTaskIds: ['tsk_1'], updatedTaskIds: [], artifactIds: ['art_1'], memoryIds: [] },
    counts,
    errorMessage: null,
    skipReason: null,
    budgetUsd: 0.5,
    maxOutputTokens: 4096,
    cancelledAt: null,
    explanation: null,
    ...overrides,
  };
}

/** GET /stats of an idle desk whose loop is on (next cycle in 10 minutes, 12 cents of a 50-cent cap spent); overrides win. */
export function someStats(overrides: Partial<Schema<'DeskStats'>> = {}): Schema<'DeskStats'> {
  return {
    healthScore: 100,
    healthFactors: [],
    phase: 'idle',
    nextCycleAt: '2026-03-10T12:10:00.000Z',
    runningRunId: null,
    cycle: null,
    loopPauseReason: null,
    lastRun: null,
    loopAlert: null,
    cycles7d: { total: 0, completed: 0, failed: 0, skipped: 0, cancelled: 0 },
    signals7d: { received: 1, untriaged: 1 },
    approvals7d: { approved: 0, archived: 0, waiting: 0, overdue: 0 },
    cost: { todayUsd: 0.12, sevenDayUsd: 0.3, dailyCostCapUsdCents: 50, capPercent: 24 },
    ...overrides,
  };
}

/** The workspace profile fields the header reads; the rest as a fresh workspace has them. */
export function aProfile(overrides: Partial<Schema<'WorkspaceProfile'>> = {}): Schema<'WorkspaceProfile'> {
  return {
    id: 'wsp_1',
    name: 'My desk',
    plan: 'free',
    timezone: 'UTC',
    ownerUserId: 'usr_1',
    loopState: 'on',
    pauseUntilAt: null,
    loopIntervalMinutes: 30,
    effectiveLoopIntervalMinutes: 30,
    approvalPolicy: { watchHours: 24, overdueHours: 72 },
    focusTags: [],
    dailyCostCapUsdCents: 50,
    createdAt: '2026-03-10T12:00:00.000Z',
    updatedAt: '2026-03-10T12:00:00.000Z',
    ...overrides,
  } as Schema<'WorkspaceProfile'>;
}
