import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { cursorList, withCursor, type CursorPage } from '../../api/cursor-list';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';

/** Query options and mutation hooks for tasks (/api/v1/tasks/...): queue, detail, notes, timeline, comments, share links. */

export type Task = Schema<'Task'>;
export type TaskDetail = Schema<'TaskDetail'>;
export type TaskStatus = Schema<'TaskStatus'>;
export type TaskStatusMove = Schema<'TaskStatusMove'>;
export type TaskPriority = Schema<'TaskPriority'>;
export type TaskNote = Schema<'TaskNote'>;
export type TimelineEntry = Schema<'TimelineEntry'>;
export type TaskComment = Schema<'TaskComment'>;
export type TaskCommentList = Schema<'TaskCommentList'>;
export type CreateTaskBody = Schema<'CreateTaskBody'>;
export type TaskBulkBody = Schema<'TaskBulkBody'>;

export interface TaskFilter {
  /** Statuses asked for; empty for the API's default (every status but archived). */
  statuses: readonly TaskStatus[];
  /** Only tasks carrying this tag; empty for all. */
  tag?: string;
  /** The order (the member's active-work sort); the API's default is created, newest first. */
  sort?: Schema<'TaskSortParam'>;
}

type TaskPage = Schema<'TaskList'> & CursorPage;

/** The queue in the asked order (newest first by default), a page (the API's default size) at a time. */
export const tasksList = (f: TaskFilter) =>
  cursorList({
    queryKey: queryKeys.tasks.list({ statuses: [...f.statuses], tag: f.tag ?? '', sort: f.sort ?? 'created' }),
    fetchPage: (cursor): Promise<TaskPage> =>
      unwrap(
        api.GET('/api/v1/tasks', {
          params: { query: withCursor({ ...(f.statuses.length ? { status: f.statuses.join(',') } : {}), ...(f.tag ? { tag: f.tag } : {}), ...(f.sort ? { sort: f.sort } : {}) }, cursor) },
        }),
      ),
    items: (page) => page.tasks,
    keepPrevious: true,
  });

export const taskQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.tasks.detail(id),
    queryFn: () => unwrap(api.GET('/api/v1/tasks/{id}', { params: { path: { id } } })),
  });

export const notesList = (id: string) =>
  cursorList({
    queryKey: queryKeys.tasks.notes(id),
    fetchPage: (cursor): Promise<Schema<'TaskNoteList'> & CursorPage> =>
      unwrap(api.GET('/api/v1/tasks/{id}/notes', { params: { path: { id }, query: withCursor({}, cursor) } })),
    items: (page) => page.notes,
  });

export const timelineList = (id: string) =>
  cursorList({
    queryKey: queryKeys.tasks.timeline(id),
    fetchPage: (cursor): Promise<Schema<'TaskTimeline'> & CursorPage> =>
      unwrap(api.GET('/api/v1/tasks/{id}/timeline', { params: { path: { id }, query: withCursor({}, cursor) } })),
    items: (page) => page.entries,
  });

/** The outputs written for a task, newest first, every version. */
export const taskOutputsQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.tasks.outputs(id),
    queryFn: () => unwrap(api.GET('/api/v1/tasks/{id}/outputs', { params: { path: { id } } })),
  });

/** The signals a task came from. */
export const taskSourcesQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.tasks.sources(id),
    queryFn: () => unwrap(api.GET('/api/v1/tasks/{id}/sources', { params: { path: { id } } })),
  });

/** A task's comments, filtered by keyword (q) and author (authorId); empty strings for none. */
export const commentsQuery = (id: string, q: string, authorId = '') =>
  queryOptions({
    queryKey: queryKeys.tasks.comments(id, { q, authorId }),
    queryFn: () => unwrap(api.GET('/api/v1/tasks/{id}/comments', { params: { path: { id }, query: { ...(q ? { q } : {}), ...(authorId ? { authorId } : {}) } } })),
    placeholderData: (prev) => prev,
  });

/** Puts the answer of a change to one task into its detail at once (the refetch follows). */
const setDetail = (qc: QueryClient, task: TaskDetail) => qc.setQueryData(queryKeys.tasks.detail(task.id), task);

/** A change to one task: the detail gets the answer, lists and the timeline refetch. */
function useTaskChange<Vars>(mutationFn: (vars: Vars) => Promise<TaskDetail>) {
  return useDeskMutation({
    mutationFn,
    update: (qc, task) => setDetail(qc, task),
    affects: (task) => [queryKeys.tasks.lists, queryKeys.tasks.detail(task.id), queryKeys.tasks.timeline(task.id)],
  });
}

export const useCreateTask = () =>
  useDeskMutation({
    mutationFn: (body: CreateTaskBody): Promise<TaskDetail> => unwrap(api.POST('/api/v1/tasks', { body })),
    update: (qc, task) => setDetail(qc, task),
    affects: [queryKeys.tasks.lists],
  });

/** Records that a template was used (usageCount, lastUsedAt). */
export const useRecordTemplateUse = () =>
  useDeskMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/v1/workspace/task-templates/{id}', { params: { path: { id } } })),
    affects: [queryKeys.templates.all],
  });

export const useBulkTasks = () =>
  useDeskMutation({
    mutationFn: (body: TaskBulkBody): Promise<Schema<'TaskBulkResult'>> => unwrap(api.POST('/api/v1/tasks/bulk', { body })),
    affects: [queryKeys.tasks.all],
  });

export const useSetStatus = (id: string) =>
  useTaskChange((status: TaskStatusMove) => unwrap(api.PATCH('/api/v1/tasks/{id}', { params: { path: { id } }, body: { status } })));

export const useSetPinned = (id: string) =>
  useTaskChange((pinned: boolean) => unwrap(api.PATCH('/api/v1/tasks/{id}/pin', { params: { path: { id } }, body: { pinned } })));

export const useAssign = (id: string) =>
  useTaskChange((assignedToUserId: string | null) => unwrap(api.PATCH('/api/v1/tasks/{id}/assignee', { params: { path: { id } }, body: { assignedToUserId } })));

export const useSetTags = (id: string) => useTaskChange((tags: string[]) => unwrap(api.PUT('/api/v1/tasks/{id}/tags', { params: { path: { id } }, body: { tags } })));

export const useSetBlockers = (id: string) =>
  useTaskChange((blockedByTaskIds: string[]) => unwrap(api.PUT('/api/v1/tasks/{id}/blockers', { params: { path: { id } }, body: { blockedByTaskIds } })));

export const useRenew = (id: string) =>
  useTaskChange((note: string) => unwrap(api.POST('/api/v1/tasks/{id}/renew', { params: { path: { id } }, body: note ? { note } : {} })));

export const useDuplicate = (id: string) =>
  useDeskMutation({
    mutationFn: (): Promise<TaskDetail> => unwrap(api.POST('/api/v1/tasks/{id}/duplicate', { params: { path: { id } }, body: {} })),
    update: (qc, task) => setDetail(qc, task),
    affects: [queryKeys.tasks.lists],
  });

export const usePostNote = (id: string) =>
  useDeskMutation({
    mutationFn: (text: string): Promise<Schema<'PostedNote'>> => unwrap(api.POST('/api/v1/tasks/{id}/notes', { params: { path: { id } }, body: { text } })),
    update: (qc, posted) => setDetail(qc, posted.task),
    affects: [queryKeys.tasks.notes(id), queryKeys.tasks.timeline(id), queryKeys.tasks.detail(id), queryKeys.tasks.lists],
  });

export const usePostComment = (id: string) =>
  useDeskMutation({
    mutationFn: (body: Schema<'NewCommentBody'>): Promise<TaskComment> => unwrap(api.POST('/api/v1/tasks/{id}/comments', { params: { path: { id } }, body })),
    affects: [queryKeys.tasks.comments(id), queryKeys.tasks.timeline(id)],
  });

export const useReactToComment = (id: string) =>
  useDeskMutation({
    mutationFn: ({ commentId, emoji }: { commentId: string; emoji: Schema<'ReactionEmoji'> }): Promise<Schema<'CommentReactionResult'>> =>
      unwrap(api.POST('/api/v1/tasks/{id}/comments/{commentId}/reaction', { params: { path: { id, commentId } }, body: { emoji } })),
    update: (qc, result) =>
      qc.setQueriesData<TaskCommentList>({ queryKey: queryKeys.tasks.comments(id) }, (list) =>
        list ? { ...list, comments: list.comments.map((c) => (c.id === result.commentId ? { ...c, reactions: result.reactions } : c)) } : list,
      ),
    affects: [],
  });

export type SharePage = 'work-log' | 'timeline';

export const useShare = (id: string) =>
  useDeskMutation({
    mutationFn: ({ page, enable }: { page: SharePage; enable: boolean }): Promise<{ sharePath: string | null }> =>
      page === 'work-log'
        ? unwrap(api.POST('/api/v1/tasks/{id}/share-work-log', { params: { path: { id } }, body: { enable } }))
        : unwrap(api.POST('/api/v1/tasks/{id}/share-timeline', { params: { path: { id } }, body: { enable } })),
    affects: [queryKeys.tasks.detail(id), queryKeys.tasks.timeline(id)],
  });
