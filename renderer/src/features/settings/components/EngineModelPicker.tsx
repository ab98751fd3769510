import { useEffect, useRef } from 'react';
import { useDebounced } from '../../../lib/use-debounced';
import { Field } from '../../../components/Field';
import { FormError } from '../../../components/FormError';
import { PROBLEM_LABELS, useFindModels, type EngineModelsAnswer } from '../engine-api';

/** A named failure and what to do about it, as Find models and Test connection show it. */
export function ProblemText({ answer }: { answer: { ok: boolean; message: string; problem?: string | null; hint?: string | null } }) {
  const label = answer.problem ? PROBLEM_LABELS[answer.problem as keyof typeof PROBLEM_LABELS] : 'Failed';
  return (
    <>
      <strong className="engine-problem">{label}</strong>: {answer.message}
      {answer.hint ? <span className="engine-hint"> What to do: {answer.hint}</span> : null}
    </>
  );
}

function findText(pending: boolean, answer: EngineModelsAnswer | undefined) {
  if (pending) return 'Asking the server for its models…';
  if (!answer) return '';
  return answer.ok ? answer.message : <ProblemText answer={answer} />;
}

/** A server on this machine (Ollama, LM Studio, vLLM): asked for its models as soon as its URL is in the form. */
export function isLoopbackUrl(url: string): boolean {
  try {
    const { protocol, hostname } = new URL(url.trim());
    return (protocol === 'http:' || protocol === 'https:') && (hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname));
  } catch {
    return false;
  }
}

/**
 * The model of an OpenAI-compatible server: picked from the models the server lists (its GET
 * /models), or typed where it lists none. A server on this machine is asked as soon as its URL
 * settles in the form; a remote one when the user presses Find models (the base URL in the form,
 * with the key typed, or the stored key when the URL is the saved one). Picking fills the text
 * field, which stays editable.
 */
export function EngineModelPicker({
  model,
  onModel,
  baseUrl,
  apiKey,
  error,
  disabled,
}: {
  model: string;
  onModel: (model: string) => void;
  baseUrl: string;
  /** The key typed in the form, or null to let the server use the stored one. */
  apiKey: string | null;
  error: string | null;
  disabled: boolean;
}) {
  const find = useFindModels();
  const pickerRef = useRef<HTMLSelectElement>(null);
  const found = find.data?.ok ? find.data.models : [];
  // What a server listed belongs to that server: a new base URL forgets it.
  const askedUrl = find.variables?.baseUrl;
  const stale = askedUrl !== undefined && askedUrl !== baseUrl.trim();
  const { reset } = find;
  useEffect(() => {
    if (stale) reset();
  }, [stale, reset]);
  // The list is where the user's attention goes once it arrives, when the user asked for it.
  const asked = useRef(false);
  const foundCount = found.length;
  useEffect(() => {
    if (foundCount > 0 && asked.current) pickerRef.current?.focus();
  }, [foundCount, find.submittedAt]);

  const request = () => (apiKey === null ? { baseUrl: baseUrl.trim() } : { baseUrl: baseUrl.trim(), apiKey });
  const ask = () => {
    asked.current = true;
    find.mutate(request());
  };
  // A local server answers at once and costs nothing: its list comes without a click.
  const settledUrl = useDebounced(baseUrl.trim(), 400);
  const { mutate, isPending } = find;
  useEffect(() => {
    if (disabled || isPending || settledUrl !== baseUrl.trim() || !isLoopbackUrl(settledUrl) || askedUrl === settledUrl) return;
    asked.current = false;
    mutate(apiKey === null ? { baseUrl: settledUrl } : { baseUrl: settledUrl, apiKey });
    // Asked once per URL: a new key is sent with Find models.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settledUrl, disabled]);

  return (
    <div className="stack stack--tight">
      <Field
        label="Model"
        hint="Type a model, or find the ones the server has."
        error={error}
        after={
          <button type="button" className="button button--secondary" disabled={disabled || find.isPending || baseUrl.trim() === ''} aria-busy={find.isPending} onClick={ask}>
            {find.isPending ? 'Finding…' : 'Find models'}
          </button>
        }
      >
        {(control) => <input {...control} className="input" value={model} autoComplete="off" spellCheck={false} onChange={(e) => onModel(e.target.value)} />}
      </Field>
      <p className={`save-status${find.data?.ok ? ' save-status--done' : ''}`} role="status" aria-label="Find models" aria-live="polite">
        {findText(find.isPending, find.data)}
      </p>
      {found.length > 0 ? (
        <Field label="Models on the server" hint={find.data?.truncated ? 'The server lists more; type a model that is not here.' : undefined}>
          {(control) => (
            <select {...control} ref={pickerRef} className="input input--select" value={found.includes(model) ? model : ''} onChange={(e) => e.target.value !== '' && onModel(e.target.value)}>
              <option value="">Choose one of {found.length}…</option>
              {found.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          )}
        </Field>
      ) : null}
      <FormError error={find.error} />
    </div>
  );
}
