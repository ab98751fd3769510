import type { TaskDeliverableType, TaskKind, TaskPriority } from '../../domain/tasks/rules';
import { Body, Controller, Delete, Get, Patch, Path, Post, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { SharedSavedSearch } from '../../domain/saved-searches/saved-search-service';
import type { TaskTemplate } from '../../domain/templates/template-service';
import type { Services } from '../../services';

export interface NewTaskTemplateBody {
  /**
   * Unique within the workspace, ignoring case (trimmed).
   */
  label: string;
  emoji?: string | null;
  hint?: string | null;
  title: string;
  summary: string;
  goal?: string | null;
  /** The kind of the tasks it starts (the task kinds). */
  kind: TaskKind;
  deliverableType: TaskDeliverableType;
  priority?: TaskPriority | null;
  /**
   * Lowercase letters and digits joined by single hyphens, like focus tags; duplicates dropped.
   */
  tags?: string[];
  /** Who creates it; the owner when left out. */
  asUserId?: string;
}

export interface TaskTemplatePatchBody {
  label?: string;
  /** null clears it. */
  emoji?: string | null;
  /** null clears it. */
  hint?: string | null;
  title?: string;
  summary?: string;
  /** null clears it. */
  goal?: string | null;
  kind?: TaskKind;
  deliverableType?: TaskDeliverableType;
  /** null clears it. */
  priority?: TaskPriority | null;
  tags?: string[];
  /** Who edits it; the owner when left out. */
  asUserId?: string;
}

export interface TaskTemplateList {
  /** Every template (at most 20), oldest first. */
  templates: TaskTemplate[];
}

export interface NewSavedSearchBody {
  name: string;
  query: string;
  /** Who saves it (shown with it); the owner when left out. */
  asUserId?: string;
}

export interface DeleteSavedSearchBody {
  searchId: string;
  /** Who removes it; the owner when left out. */
  asUserId?: string;
}

export interface SharedSavedSearchList {
  /** Every shared saved search (at most 30), newest first. */
  searches: SharedSavedSearch[];
}

/** Task templates and the team's shared saved searches. */
@Route('api/v1/workspace')
@Tags('Task templates and saved searches')
@Security('bearer')
export class TemplatesController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /** Every task template (at most 20), oldest first, with usageCount and lastUsedAt. */
  @Get('task-templates')
  public async listTaskTemplates(): Promise<TaskTemplateList> {
    return { templates: await this.s.templates.list() };
  }

  /**
   * Creates a task template, logged as `task_template.created` and emitting that event. At most 20
   * per workspace; the label is unique ignoring case. kind, deliverableType and priority take the task values
   * (TaskKind, TaskDeliverableType, TaskPriority), so every template starts a valid task.
   */
  @Post('task-templates')
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>('409', '`limit_reached` (20 templates) or `template_label_exists`; nothing was created')
  @Response<ErrorBody>('422', 'a field out of bounds, a tag not in the tag format, or asUserId is not a member')
  public async createTaskTemplate(@Body() body: NewTaskTemplateBody): Promise<TaskTemplate> {
    const created = await this.s.templates.create(body);
    this.setStatus(201);
    return created;
  }

  /** Changes the fields given (null clears an optional one), logged as `task_template.updated`. A body that changes nothing logs nothing. */
  @Patch('task-templates/{id}')
  @Response<ErrorBody>('404', '`task_template_not_found`')
  @Response<ErrorBody>('409', '`template_label_exists`')
  @Response<ErrorBody>('422', 'a field out of bounds, or asUserId is not a member')
  public async updateTaskTemplate(@Path() id: string, @Body() body: TaskTemplatePatchBody): Promise<TaskTemplate> {
    return this.s.templates.update(id, body);
  }

  /** Deletes a template, logged as `task_template.deleted`. */
  @Delete('task-templates/{id}')
  @Response<ErrorBody>('404', '`task_template_not_found`')
  public async deleteTaskTemplate(@Path() id: string): Promise<TaskTemplate> {
    return this.s.templates.remove(id);
  }

  /** Records a use of the template: usageCount + 1 and lastUsedAt now, logged as `task_template.used`. */
  @Post('task-templates/{id}')
  @Response<ErrorBody>('404', '`task_template_not_found`')
  public async recordTaskTemplateUse(@Path() id: string): Promise<TaskTemplate> {
    return this.s.templates.recordUse(id);
  }

  /** Every shared saved search (at most 30), newest first, with who saved it. */
  @Get('shared-saved-searches')
  public async listSharedSavedSearches(): Promise<SharedSavedSearchList> {
    return { searches: await this.s.savedSearches.list() };
  }

  /** Saves a search for the team, attributed to asUserId (else the owner); logged as `saved_search.created`. At most 30. */
  @Post('shared-saved-searches')
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>('409', '`limit_reached`: 30 shared saved searches; nothing was created')
  @Response<ErrorBody>('422', 'name or query out of bounds, or asUserId is not a member')
  public async createSharedSavedSearch(@Body() body: NewSavedSearchBody): Promise<SharedSavedSearch> {
    const created = await this.s.savedSearches.create(body);
    this.setStatus(201);
    return created;
  }

  /** Removes a shared saved search named in the body, logged as `saved_search.deleted`. An unknown searchId is a 422 naming it (the body names it, not the URL). */
  @Delete('shared-saved-searches')
  @Response<ErrorBody>('422', 'searchId is not a shared saved search, or asUserId is not a member')
  public async deleteSharedSavedSearch(@Body() body: DeleteSavedSearchBody): Promise<SharedSavedSearch> {
    return this.s.savedSearches.remove(body);
  }
}
