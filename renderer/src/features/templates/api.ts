import { queryOptions } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';

/** Task templates (/api/v1/workspace/task-templates). */

export type TaskTemplate = Schema<'TaskTemplate'>;
export type NewTaskTemplate = Schema<'NewTaskTemplateBody'>;
export type TaskTemplatePatch = Schema<'TaskTemplatePatchBody'>;

export const templatesQuery = () =>
  queryOptions({
    queryKey: queryKeys.templates.list,
    queryFn: () => unwrap(api.GET('/api/v1/workspace/task-templates')),
  });

const affects = [queryKeys.templates.all];

export const useCreateTemplate = () =>
  useDeskMutation({
    mutationFn: (body: NewTaskTemplate): Promise<TaskTemplate> => unwrap(api.POST('/api/v1/workspace/task-templates', { body })),
    affects,
  });

export const useUpdateTemplate = () =>
  useDeskMutation({
    mutationFn: ({ id, body }: { id: string; body: TaskTemplatePatch }): Promise<TaskTemplate> =>
      unwrap(api.PATCH('/api/v1/workspace/task-templates/{id}', { params: { path: { id } }, body })),
    affects,
  });

export const useDeleteTemplate = () =>
  useDeskMutation({
    mutationFn: (id: string): Promise<TaskTemplate> => unwrap(api.DELETE('/api/v1/workspace/task-templates/{id}', { params: { path: { id } } })),
    affects,
  });
