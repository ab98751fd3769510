import { ApiError } from '../api/client';

/**
 * The part of an API error that no field on the form shows: a message without details, a network
 * failure, or a detail naming a field this form does not have.
 */
export function FormError({ error, fields = [] }: { error: unknown; fields?: readonly string[] }) {
  if (!error) return null;
  if (error instanceof ApiError && error.hasFieldError(fields)) return null;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}

/** The message for one field from a mutation's error, if it names that field. */
export function fieldError(error: unknown, field: string): string | undefined {
  return error instanceof ApiError ? error.fieldError(field) : undefined;
}
