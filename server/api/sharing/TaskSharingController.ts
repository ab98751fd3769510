import { Body, Controller, Get, Path, Post, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { ViewDay } from '../../domain/sharing/share-service';
import type { Services } from '../../services';

export interface ShareBody {
  /** true shares the page (keeps an existing link), false revokes its link at once. */
  enable: boolean;
}

export interface ShareWorkLogResult {
  ok: boolean;
  /** The token of the public work-log page (256 random bits), or null when not shared. */
  publicWorkLogToken: string | null;
  /** Where the page is served, `/share/work-log/<token>`, or null. */
  sharePath: string | null;
}

export interface ShareTimelineResult {
  ok: boolean;
  /** The token of the public timeline page (256 random bits), or null when not shared. */
  publicTimelineToken: string | null;
  /** Where the page is served, `/share/timeline/<token>`, or null. */
  sharePath: string | null;
}

export interface WorkLogViews {
  /** The trailing 14 workspace-timezone days, oldest first, zero-filled. */
  days: ViewDay[];
}

/**
 * Share links: a task's work log or timeline as a public, read-only HTML page at
 * `/share/work-log/<token>` or `/share/timeline/<token>` (no bearer token; the timeline adds the
 * creation event and the comments). An unknown or revoked token answers 404. Every view is counted
 * on its workspace-timezone day.
 */
@Route('api/v1/tasks')
@Tags('Task sharing')
@Security('bearer')
export class TaskSharingController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Shares or unshares the task's work-log page. Enabling an already shared page keeps its token
   * (disable, then enable, for a new link); disabling revokes the link at once. A change is logged
   * (`task.share_enabled` / `task.share_disabled`) and emits `task.share_changed`.
   */
  @Post('{id}/share-work-log')
  @Response<ErrorBody>('404', 'No such task')
  @Response<ErrorBody>('422', 'enable is not a boolean')
  public async shareTaskWorkLog(@Path() id: string, @Body() body: ShareBody): Promise<ShareWorkLogResult> {
    const state = await this.s.sharing.setShared(id, 'work_log', body.enable);
    return { ok: true, publicWorkLogToken: state.token, sharePath: state.sharePath };
  }

  /** Shares or unshares the task's timeline page, as share-work-log does. */
  @Post('{id}/share-timeline')
  @Response<ErrorBody>('404', 'No such task')
  @Response<ErrorBody>('422', 'enable is not a boolean')
  public async shareTaskTimeline(@Path() id: string, @Body() body: ShareBody): Promise<ShareTimelineResult> {
    const state = await this.s.sharing.setShared(id, 'timeline', body.enable);
    return { ok: true, publicTimelineToken: state.token, sharePath: state.sharePath };
  }

  /** Views of the public work-log page per workspace-timezone day: the trailing 14 days, oldest first, zero-filled. */
  @Get('{id}/work-log-views')
  @Response<ErrorBody>('404', 'No such task')
  public async getTaskWorkLogViews(@Path() id: string): Promise<WorkLogViews> {
    return this.s.sharing.workLogViews(id);
  }
}
