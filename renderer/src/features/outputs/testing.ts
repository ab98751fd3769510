import type { Schema } from '../../api/client';

/** An output as GET /artifacts/{id} answers it (ready, version 1, for task tsk_1); overrides win. */
export function anOutput(id: string, title: string, overrides: Partial<Schema<'Artifact'>> = {}): Schema<'Artifact'> {
  return {
    id,
    taskId: 'tsk_1',
    taskTitle: 'Answer the pricing thread',
    runId: 'run_1',
    kind: 'report',
    title,
    status: 'ready',
    version: 1,
    parentArtifactId: null,
    pinned: false,
    tags: [],
    reactions: [],
    readyAt: '2026-03-10T10:00:00.000Z',
    decidedAt: null,
    approvalAgeHours: 2,
    approvalAttention: 'fresh',
    reviewOwner: null,
    createdAt: '2026-03-10T10:00:00.000Z',
    updatedAt: '2026-03-10T10:00:00.000Z',
    content: `# ${title}\n\nWhat happened.`,
    ...overrides,
  };
}
