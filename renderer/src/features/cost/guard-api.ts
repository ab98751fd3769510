import { api, unwrap, type Schema } from '../../api/client';

/**
 * The cost guard's lists and acks per dimension, as data: the panels render every dimension the
 * same way. Spikes: today at least 2x the trailing 7-day average and at least $0.50 (acks last
 * to the workspace midnight); chronic: a streak of spike days (acks last 7 days).
 */

export type SpikeRow = Schema<'CostSpikeRow'>;
export type ChronicRow = Schema<'CostChronicRow'>;
export type Dimension = 'task' | 'source' | 'tag' | 'assignee' | 'memory';

export interface GuardDimension<Row> {
  dimension: Dimension;
  /** Plural, for the group heading. */
  label: string;
  list: () => Promise<Row[]>;
  ack: (key: string) => Promise<unknown>;
  ackAll: (keys: string[]) => Promise<unknown>;
}

export const SPIKE_DIMENSIONS: readonly GuardDimension<SpikeRow>[] = [
  {
    dimension: 'task',
    label: 'Tasks',
    list: async () => (await unwrap(api.GET('/api/v1/tasks/cost-spikes', { params: { query: { limit: 50 } } }))).spikes,
    ack: (id) => unwrap(api.POST('/api/v1/tasks/{id}/cost-spike-ack', { params: { path: { id } } })),
    ackAll: (taskIds) => unwrap(api.POST('/api/v1/tasks/cost-spike-ack/bulk', { body: { taskIds } })),
  },
  {
    dimension: 'source',
    label: 'Sources',
    list: async () => (await unwrap(api.GET('/api/v1/sources/cost-spikes', { params: { query: { limit: 50 } } }))).spikes,
    ack: (id) => unwrap(api.POST('/api/v1/sources/{id}/cost-spike-ack', { params: { path: { id } } })),
    ackAll: (sourceIds) => unwrap(api.POST('/api/v1/sources/cost-spike-ack/bulk', { body: { sourceIds } })),
  },
  {
    dimension: 'tag',
    label: 'Tags',
    list: async () => (await unwrap(api.GET('/api/v1/cost/by-tag/spikes', { params: { query: { limit: 50 } } }))).spikes,
    ack: (tag) => unwrap(api.POST('/api/v1/cost/by-tag/{tag}/cost-spike-ack', { params: { path: { tag } } })),
    ackAll: (tags) => unwrap(api.POST('/api/v1/cost/by-tag/cost-spike-ack/bulk', { body: { tags } })),
  },
  {
    dimension: 'assignee',
    label: 'Assignees',
    list: async () => (await unwrap(api.GET('/api/v1/cost/by-assignee/spikes', { params: { query: { limit: 50 } } }))).spikes,
    ack: (assigneeId) => unwrap(api.POST('/api/v1/cost/by-assignee/{assigneeId}/cost-spike-ack', { params: { path: { assigneeId } } })),
    ackAll: (assigneeUserIds) => unwrap(api.POST('/api/v1/cost/by-assignee/cost-spike-ack/bulk', { body: { assigneeUserIds } })),
  },
  {
    dimension: 'memory',
    label: 'Memory',
    list: async () => (await unwrap(api.GET('/api/v1/memory/cost-spikes', { params: { query: { limit: 50 } } }))).spikes,
    ack: (memoryId) => unwrap(api.POST('/api/v1/memory/{memoryId}/cost-spike-ack', { params: { path: { memoryId } } })),
    ackAll: (memoryIds) => unwrap(api.POST('/api/v1/memory/cost-spike-ack/bulk', { body: { memoryIds } })),
  },
];

export const CHRONIC_DIMENSIONS: readonly GuardDimension<ChronicRow>[] = [
  {
    dimension: 'source',
    label: 'Sources',
    list: async () => (await unwrap(api.GET('/api/v1/cost/by-source/chronic-spikes', { params: { query: { limit: 50 } } }))).chronic,
    ack: (sourceId) => unwrap(api.POST('/api/v1/sources/{sourceId}/chronic-ack', { params: { path: { sourceId } } })),
    ackAll: (sourceIds) => unwrap(api.POST('/api/v1/sources/chronic-ack/bulk', { body: { sourceIds } })),
  },
  {
    dimension: 'tag',
    label: 'Tags',
    list: async () => (await unwrap(api.GET('/api/v1/cost/by-tag/chronic-spikes', { params: { query: { limit: 50 } } }))).chronic,
    ack: (tag) => unwrap(api.POST('/api/v1/cost/by-tag/{tag}/chronic-ack', { params: { path: { tag } } })),
    ackAll: (tags) => unwrap(api.POST('/api/v1/cost/by-tag/chronic-ack/bulk', { body: { tags } })),
  },
  {
    dimension: 'assignee',
    label: 'Assignees',
    list: async () => (await unwrap(api.GET('/api/v1/cost/by-assignee/chronic-spikes', { params: { query: { limit: 50 } } }))).chronic,
    ack: (assigneeId) => unwrap(api.POST('/api/v1/cost/by-assignee/{assigneeId}/chronic-ack', { params: { path: { assigneeId } } })),
    ackAll: (assigneeUserIds) => unwrap(api.POST('/api/v1/cost/by-assignee/chronic-ack/bulk', { body: { assigneeUserIds } })),
  },
  {
    dimension: 'memory',
    label: 'Memory',
    list: async () => (await unwrap(api.GET('/api/v1/memory/chronic-warnings', { params: { query: { limit: 50 } } }))).chronic,
    ack: (memoryId) => unwrap(api.POST('/api/v1/memory/{memoryId}/chronic-ack', { params: { path: { memoryId } } })),
    ackAll: (memoryIds) => unwrap(api.POST('/api/v1/memory/chronic-ack/bulk', { body: { memoryIds } })),
  },
];
