import { useState, type FormEvent } from 'react';
import { Field } from '../../../components/Field';
import { FormError, fieldError } from '../../../components/FormError';
import { SettingRow } from '../../../components/Section';
import { SubmitActions } from '../../../components/SubmitActions';
import { priceLine, useSaveEngineSettings, type EngineSettings } from '../engine-api';

const FIELDS = ['inputPricePerMillionUsd', 'outputPricePerMillionUsd'];

/** A typed amount as the API takes it; NaN when it is not a number (said next to the field before anything is sent). */
const amount = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text.trim()));

/**
 * The price the cycles are budgeted and charged at, where it comes from, and the operator's own
 * price for a model the price table does not know (a fine-tune, a local model on a paid GPU).
 */
export function EnginePrice({ settings }: { settings: EngineSettings }) {
  const save = useSaveEngineSettings();
  const own = settings.price.source === 'operator';
  const [editing, setEditing] = useState(false);
  const [input, setInput] = useState(own ? String(settings.price.inputPerMillionUsd) : '');
  const [output, setOutput] = useState(own ? String(settings.price.outputPerMillionUsd) : '');
  const [local, setLocal] = useState<Record<string, string>>({});
  const showForm = editing || settings.price.source === 'unknown';

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = { inputPricePerMillionUsd: amount(input), outputPricePerMillionUsd: amount(output) };
    // JSON would carry NaN as null (which clears): a typo is said here and nothing is sent.
    const errors = Object.fromEntries(Object.entries(body).filter(([, v]) => Number.isNaN(v)).map(([k]) => [k, 'Must be a number of US dollars, e.g. 0.15.']));
    setLocal(errors);
    if (Object.keys(errors).length > 0) return;
    save.mutate(body, { onSuccess: () => setEditing(false) });
  };
  const error = (field: string) => local[field] ?? fieldError(save.error, field);

  return (
    <SettingRow
      title="Price"
      description={settings.engine === 'local' ? "What the built-in engine's work would cost at this model: an estimate, the built-in engine itself is free." : 'What each cycle is budgeted and charged at, against the daily cost cap.'}
    >
      <p className="engine-price" data-testid="engine-price">
        {priceLine(settings.price)}
      </p>
      <div className="inline-form">
        {!showForm ? (
          <button type="button" className="button button--secondary" onClick={() => setEditing(true)}>
            {own ? 'Change your price' : 'Set your own price'}
          </button>
        ) : null}
        {own ? (
          <button type="button" className="button button--ghost" disabled={save.isPending} onClick={() => save.mutate({ inputPricePerMillionUsd: null, outputPricePerMillionUsd: null })}>
            Use the standard price
          </button>
        ) : null}
      </div>
      {showForm ? (
        <form onSubmit={submit} noValidate className="control-grid" aria-label="Your price">
          <Field label="Input, USD per million tokens" error={error(FIELDS[0])}>
            {(control) => <input {...control} className="input" inputMode="decimal" value={input} autoComplete="off" onChange={(e) => setInput(e.target.value)} />}
          </Field>
          <Field
            label="Output, USD per million tokens"
            error={error(FIELDS[1])}
            after={
              <SubmitActions mutation={save} label="Set price">
                {editing ? (
                  <button type="button" className="button button--ghost" onClick={() => setEditing(false)}>
                    Cancel
                  </button>
                ) : null}
              </SubmitActions>
            }
          >
            {(control) => <input {...control} className="input" inputMode="decimal" value={output} autoComplete="off" onChange={(e) => setOutput(e.target.value)} />}
          </Field>
        </form>
      ) : null}
      <FormError error={save.error} fields={FIELDS} />
    </SettingRow>
  );
}
