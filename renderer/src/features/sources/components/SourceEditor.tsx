import { useState, type FormEvent } from 'react';
import { Field } from '../../../components/Field';
import { FormError, fieldError } from '../../../components/FormError';
import { SaveStatus } from '../../../components/SaveStatus';
import { formatDateTime, formatDuration, fromDatetimeLocal, parseWhole, toDatetimeLocal } from '../../../lib/format';
import { useDraft } from '../../../lib/use-draft';
import { useBulkSources, useSetKeywords, useSetSourcePause, useUpdateSource, type Source } from '../api';
import { isFeedType, keywordsText, MAX_SOURCE_PAUSE_DAYS, parseKeywords } from '../format';
import { ConfirmButton } from '../../../components/ConfirmButton';

function LabelForm({ source }: { source: Source }) {
  const save = useUpdateSource();
  const [label, setLabel] = useDraft(source.label, String);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ id: source.id, body: { label: label.trim() } });
  };
  return (
    <form className="inline-form" onSubmit={submit} noValidate>
      <Field
        label="Label"
        error={fieldError(save.error, 'label')}
        after={
          <>
            <button type="submit" className="button button--secondary" disabled={save.isPending || label.trim() === source.label}>
              Rename
            </button>
            <SaveStatus mutation={save} />
          </>
        }
      >
        {(control) => <input {...control} className="input input--wide" value={label} maxLength={80} onChange={(e) => setLabel(e.target.value)} />}
      </Field>
      <FormError error={save.error} fields={['label']} />
    </form>
  );
}

function CadenceForm({ source }: { source: Source }) {
  const save = useUpdateSource();
  const [minutes, setMinutes] = useDraft(source.pollIntervalMinutes, (m) => (m === null ? '' : String(m)));
  const [localError, setLocalError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = parseWhole(minutes);
    setLocalError(value === null ? 'Enter whole minutes, or use the workspace cadence' : null);
    if (value !== null) save.mutate({ id: source.id, body: { pollIntervalMinutes: value } });
  };
  const gating = source.pollGating;
  return (
    <form className="inline-form" onSubmit={submit} noValidate>
      <Field
        label="Poll every (minutes)"
        hint={
          gating
            ? source.pollIntervalMinutes === null
              ? `Follows the workspace cadence: every ${formatDuration(gating.intervalMinutes)}.`
              : `Own cadence; effective every ${formatDuration(gating.intervalMinutes)} (the plan floor applies).`
            : undefined
        }
        error={localError ?? fieldError(save.error, 'pollIntervalMinutes')}
        after={
          <>
            <button type="submit" className="button button--secondary" disabled={save.isPending}>
              Set cadence
            </button>
            {source.pollIntervalMinutes !== null ? (
              <button
                type="button"
                className="button button--ghost"
                disabled={save.isPending}
                onClick={() => {
                  setLocalError(null);
                  save.mutate({ id: source.id, body: { pollIntervalMinutes: null } });
                }}
              >
                Use workspace cadence
              </button>
            ) : null}
            <SaveStatus mutation={save} />
          </>
        }
      >
        {(control) => (
          <input {...control} className="input input--number" type="number" min={1} max={1440} value={minutes} placeholder="workspace" onChange={(e) => setMinutes(e.target.value)} />
        )}
      </Field>
      <FormError error={save.error} fields={['pollIntervalMinutes']} />
    </form>
  );
}

function PauseForm({ source }: { source: Source }) {
  const save = useSetSourcePause();
  const bulk = useBulkSources();
  const [value, setValue] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);
  const now = new Date();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const iso = fromDatetimeLocal(value);
    setLocalError(iso ? null : 'Choose a date and time');
    if (iso) save.mutate({ id: source.id, pausedUntilAt: iso }, { onSuccess: () => setValue('') });
  };
  const pauseNow = () => {
    setLocalError(null);
    bulk.mutate({ action: 'pause', sourceIds: [source.id] });
  };
  const resume = () => {
    setLocalError(null);
    save.mutate({ id: source.id, pausedUntilAt: null });
  };
  return (
    <div className="stack stack--tight">
      {source.paused ? (
        <div className="notice notice--info">
          <span>
            {source.pausedUntilAt ? (
              <>
                Paused; resumes by itself at <strong>{formatDateTime(source.pausedUntilAt, true)}</strong>.
              </>
            ) : (
              <>Paused until you resume it.</>
            )}
          </span>
          <button type="button" className="button button--secondary button--small" onClick={resume} disabled={save.isPending}>
            Resume now
          </button>
        </div>
      ) : null}
      <form className="inline-form" onSubmit={submit} noValidate>
        <Field
          label="Pause until"
          hint={`Stops polling now and resumes by itself, at most ${MAX_SOURCE_PAUSE_DAYS} days ahead.`}
          error={localError ?? fieldError(save.error, 'pausedUntilAt')}
          after={
            <>
              <button type="submit" className="button button--secondary" disabled={save.isPending}>
                {source.pausedUntilAt ? 'Change' : 'Schedule pause'}
              </button>
              {!source.paused ? (
                <button type="button" className="button button--ghost" onClick={pauseNow} disabled={bulk.isPending}>
                  Pause indefinitely
                </button>
              ) : null}
              <SaveStatus mutation={save} />
            </>
          }
        >
          {(control) => (
            <input
              {...control}
              type="datetime-local"
              className="input"
              value={value}
              min={toDatetimeLocal(now)}
              max={toDatetimeLocal(new Date(now.getTime() + MAX_SOURCE_PAUSE_DAYS * 86_400_000))}
              onChange={(e) => setValue(e.target.value)}
            />
          )}
        </Field>
      </form>
      <FormError error={save.error} fields={['pausedUntilAt']} />
      <FormError error={bulk.error} />
    </div>
  );
}

function KeywordsForm({ source }: { source: Source }) {
  const save = useSetKeywords();
  const [include, setInclude] = useDraft(source.includeKeywords, keywordsText);
  const [exclude, setExclude] = useDraft(source.excludeKeywords, keywordsText);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ id: source.id, body: { includeKeywords: parseKeywords(include), excludeKeywords: parseKeywords(exclude) } });
  };
  return (
    <form className="inline-form" onSubmit={submit} noValidate>
      <Field label="Include keywords" hint="Comma-separated; empty lets every item through." error={fieldError(save.error, 'includeKeywords')}>
        {(control) => <input {...control} className="input input--wide" value={include} onChange={(e) => setInclude(e.target.value)} />}
      </Field>
      <Field
        label="Exclude keywords"
        hint="Wins over include. Applies to items that arrive from now on."
        error={fieldError(save.error, 'excludeKeywords')}
        after={
          <>
            <button type="submit" className="button button--secondary" disabled={save.isPending}>
              Save keywords
            </button>
            <SaveStatus mutation={save} />
          </>
        }
      >
        {(control) => <input {...control} className="input input--wide" value={exclude} onChange={(e) => setExclude(e.target.value)} />}
      </Field>
      <FormError error={save.error} fields={['includeKeywords', 'excludeKeywords']} />
    </form>
  );
}

/** Everything about one source, opened under its row: label, cadence, pause, keywords, delete. */
export function SourceEditor({ source, onDeleted }: { source: Source; onDeleted: () => void }) {
  const remove = useBulkSources();
  const feed = isFeedType(source.type);
  return (
    <div className="source-editor">
      <div className="source-editor__grid">
        <LabelForm source={source} />
        {feed ? <CadenceForm source={source} /> : null}
        {feed ? <PauseForm source={source} /> : null}
        {source.type !== 'manual' ? <KeywordsForm source={source} /> : null}
      </div>
      <div className="source-editor__footer">
        <span className="muted small">
          Added {formatDateTime(source.createdAt)}
          {source.url ? (
            <>
              {' · '}
              <span className="mono-break">{source.url}</span>
            </>
          ) : null}
        </span>
        <ConfirmButton
          label="Delete source"
          question="Delete this source? Its signals stay."
          confirmLabel="Delete"
          disabled={remove.isPending}
          onConfirm={() => remove.mutate({ action: 'delete', sourceIds: [source.id] }, { onSuccess: onDeleted })}
        />
      </div>
      <FormError error={remove.error} />
    </div>
  );
}
