import { Body, Controller, Post, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { ApplyTemplateResult } from '../../domain/onboarding/apply-template';
import type { Services } from '../../services';

export interface ApplyTemplateBody {
  /**
   * The template's key in the public catalog (GET /onboarding-templates).
   */
  key: string;
  /** Add the template's memories (default true). */
  memories?: boolean;
  /** Add the template's sample signals (default true). */
  signals?: boolean;
  /**
   * Only these memories: 0-based positions in the template's `memories[]` (all when left out).
   */
  memoryIndexes?: number[];
  /**
   * Only these sample signals: 0-based positions in the template's `signals[]` (all when left out).
   */
  signalIndexes?: number[];
  /** Who applies it; the owner when left out. */
  asUserId?: string;
}

/** Starting a desk from an onboarding template. */
@Route('api/v1/workspace/onboarding-template')
@Tags('Onboarding templates')
@Security('bearer')
export class OnboardingApplyController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Adds a template's memories as memory entries and its sample signals as manual signals, in one
   * transaction with one `onboarding.template_applied` activity row and event (each entry also
   * has its usual `memory.created` / `signal.created` event). An entry whose title is already on
   * the desk (a memory entry, archived ones included, or a signal) is skipped and listed in
   * `skipped`, so applying a template twice adds nothing. `memories: false` or `signals: false`
   * leaves that half out; `memoryIndexes` / `signalIndexes` pick entries by position (each must
   * name an entry: a 422 naming e.g. `memoryIndexes[2]` otherwise). Answers 200 with what was added
   * (ids and titles) and skipped, also when everything was skipped.
   */
  @Post('apply')
  @Response<ErrorBody>('404', 'No template with that key (`error: template_not_found`); nothing changed')
  @Response<ErrorBody>('422', 'A field is invalid; nothing changed')
  public async applyOnboardingTemplate(@Body() body: ApplyTemplateBody): Promise<ApplyTemplateResult> {
    return this.s.onboarding.apply(body);
  }
}
