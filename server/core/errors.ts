/**
 * Errors: one body shape, one vocabulary of codes, one status policy.
 *
 * Status policy (409 versus 422):
 * - 400: the body is not JSON, or not the shape JSON must have (malformed_body).
 * - 404: the URL names something that does not exist (`<thing>_not_found`, `not_found`).
 * - 422: the request itself is wrong, and fixing the request fixes it: a field out of its bounds,
 *   a bad format, a value of the wrong enum, a reference in the body to something that does not
 *   exist or does not fit (always `validation_failed` with `details` naming the field, or a more
 *   specific code with the field in `details`, like the feed errors of a preview).
 * - 409: the request is well-formed but the current state of the target forbids it, and the
 *   state must change first: a duplicate, a paused source asked to poll, an operation that does
 *   not apply to this kind of target (a manual source asked to poll), a count limit reached.
 *
 * Bulk policy (every `.../bulk` call): ids are checked as a list (1-50, 422 otherwise); ids that
 * match nothing are listed in `notFound` and the action applies to the rest; ids whose target the
 * action does not apply to are listed in `skipped` where the endpoint has such targets. A bulk call
 * whose ids all miss answers 200 with `affected: 0`.
 *
 * Both policies are also the API description in tsoa.json (the OpenAPI document states them once;
 * endpoint descriptions refer to them): change them in both places.
 */

/** Every error code Desk answers with. */
export type ErrorCode =
  // request shape and transport
  | 'malformed_body'
  | 'body_too_large'
  | 'unsupported_encoding'
  | 'bad_request'
  | 'validation_failed'
  | 'unauthorized'
  | 'rate_limited'
  | 'not_found'
  | 'internal_error'
  | 'host_not_allowed' | 'origin_not_allowed' // foreign Host (421) or Origin (403): DNS rebinding, cross-site posts
  // unknown ids
  | 'signal_not_found'
  | 'source_not_found'
  | 'ingest_token_not_found'
  | 'mcp_token_not_found'
  | 'task_not_found'
  | 'comment_not_found'
  | 'mention_not_found'
  | 'member_not_found'
  | 'invite_not_found'
  | 'task_template_not_found'
  | 'run_not_found'
  | 'artifact_not_found'
  | 'memory_not_found'
  | 'outbound_subscription_not_found'
  | 'outbound_delivery_not_found'
  | 'template_not_found' // an onboarding template key (the public 404, with `key`, and POST /workspace/onboarding-template/apply)
  | 'category_not_found' // an onboarding template category (the public 404, with `category` and `validCategories`)
  // state conflicts
  | 'limit_reached'
  | 'source_exists'
  | 'source_paused'
  | 'wrong_source_type'
  | 'backup_running'
  | 'member_exists'
  | 'invite_exists'
  | 'owner_not_removable'
  | 'not_a_reviewer'
  | 'template_label_exists'
  | 'run_in_progress'
  | 'run_not_running' // cancel of a cycle that has ended
  | 'run_applying' // cancel of a cycle already applying its results (too late)
  | 'artifact_decided'
  | 'artifact_superseded' // a newer version of the output replaced this one
  | 'artifact_not_decided' // reopen of an output still waiting for review
  | 'cost_cap_reached'
  // the acting member (asUserId) may not do this (422 naming asUserId; members do not log in, so no 403)
  | 'role_not_permitted'
  // feeds and files (preview answers 422 with these)
  | 'feed_unreachable'
  | 'feed_timeout'
  | 'feed_http_error'
  | 'feed_too_large'
  | 'not_a_feed'
  | 'file_unreadable'
  | 'file_invalid'
  // the desk's storage: the database failed its check at start (503, rescue mode), the disk is full (507)
  | 'database_damaged'
  | 'disk_full'
  | 'not_in_rescue_mode';

/** What a 404 can name: the code is `<entity>_not_found`. */
export type NotFoundEntity = 'signal' | 'source' | 'ingest_token' | 'mcp_token' | 'task' | 'comment' | 'mention' | 'member' | 'invite' | 'task_template' | 'run' | 'artifact' | 'outbound_subscription' | 'outbound_delivery';

/** One detail of a validation failure: the field and what is wrong with it. */
export interface ErrorDetail {
  field: string;
  message: string;
}

/** The one error body Desk answers with, everywhere. */
export interface ErrorBody {
  /** snake_case machine code, e.g. `validation_failed` */
  error: ErrorCode;
  message: string;
  details?: ErrorDetail[];
}

/** A rule broken by a request. Domain code throws these; the app maps them to the error body. */
export class DeskError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 503 | 507,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = 'DeskError';
  }
}

export const badRequest = (code: ErrorCode, message: string) => new DeskError(400, code, message);
/** What the UI calls each kind (the code keeps the API's word: `artifact_not_found`). */
const ENTITY_WORDS: Partial<Record<NotFoundEntity, string>> = { artifact: 'output', outbound_subscription: 'webhook subscription', outbound_delivery: 'webhook delivery', task_template: 'task template' };
export const notFound = (what: NotFoundEntity, id: string) => new DeskError(404, `${what}_not_found`, `No ${ENTITY_WORDS[what] ?? what.replace(/_/g, ' ')} with id ${id}`);
/** A memory entry's 404 (its own wording; the cost guard's acks answer it too). */
export const memoryNotFound = (id: string) => new DeskError(404, 'memory_not_found', `No memory entry with id ${id}`);
/** 409: the target's current state forbids the request (see the status policy above). */
export const conflict = (code: ErrorCode, message: string) => new DeskError(409, code, message);

/** 422 naming the field, e.g. invalid('overdueHours', 'must be greater than watchHours'). */
export function invalid(field: string, message: string): DeskError {
  return new DeskError(422, 'validation_failed', `${field} ${message}`, [{ field, message }]);
}

/** Whether `v` is one of `values` (an enum's values). */
export const isOneOf = <T extends string>(values: readonly T[], v: unknown): v is T => (values as readonly unknown[]).includes(v);

/** A value that must be one of `values` (an enum field or parameter): 422 naming the field otherwise. */
export function checkEnum<T extends string>(field: string, values: readonly T[], v: unknown): T {
  if (!isOneOf(values, v)) throw invalid(field, `must be one of ${values.join(', ')}`);
  return v;
}
