import { fieldError } from './FormError';
import { Field } from './Field';
import { SaveStatus } from './SaveStatus';

/** A select that saves as soon as it changes, with its save status and the API's message for its field. */
export function AutoSaveSelect({
  label,
  field,
  value,
  options,
  mutation,
}: {
  label: string;
  /** The field as the API names it in error details. */
  field: string;
  value: string;
  options: readonly { value: string; label: string }[];
  mutation: { isPending: boolean; isSuccess: boolean; submittedAt: number; error: unknown; mutate(value: string): void };
}) {
  return (
    <Field label={label} error={fieldError(mutation.error, field)} after={<SaveStatus mutation={mutation} />}>
      {(control) => (
        <select {...control} className="input input--select" value={value} disabled={mutation.isPending} onChange={(e) => mutation.mutate(e.target.value)}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
