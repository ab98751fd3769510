/** One detail of a validation failure: the field and what is wrong with it. */
export interface ErrorDetail {
  field: string;
  message: string;
}

/** The one error body Desk answers with, everywhere. */
export interface ErrorBody {
  /** snake_case machine code, e.g. `validation_failed` */
  error: string;
  message: string;
  details?: ErrorDetail[];
}

/** A rule broken by a request. Domain code throws these; the app maps them to the error body. */
export class DeskError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = 'DeskError';
  }
}

export const badRequest = (code: string, message: string) => new DeskError(400, code, message);
export const notFound = (what: string, id: string) =>
  new DeskError(404, `${what}_not_found`, `No ${what.replace(/_/g, ' ')} with id ${id}`);
export const conflict = (code: string, message: string) => new DeskError(409, code, message);

/** 422 naming the field, e.g. invalid('overdueHours', 'must be greater than watchHours'). */
export function invalid(field: string, message: string): DeskError {
  return new DeskError(422, 'validation_failed', `${field} ${message}`, [{ field, message }]);
}
