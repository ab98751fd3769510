import { useState, type FormEvent } from 'react';
import { Field } from '../../../components/Field';
import { FormError, fieldError } from '../../../components/FormError';
import { MAX_PAUSE_DAYS, PauseUntilForm } from '../../../components/PauseUntilForm';
import { SubmitActions } from '../../../components/SubmitActions';
import { formatDateTime, formatDuration, parseWhole } from '../../../lib/format';
import { useDraft } from '../../../lib/use-draft';
import { useBulkSources, useSetKeywords, useSetSourcePause, useUpdateSource, type Source } from '../api';
import { isFeedType, keywordsText, parseKeywords } from '../format';
import { ConfirmButton } from '../../../components/ConfirmButton';
import { LIMITS } from '../../../api/rules.gen';
import { Link } from '@tanstack/react-router';
import { ScopedIngestUrls } from '../../ingest/ScopedIngestUrls';

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
        after={<SubmitActions mutation={save} label="Rename" secondary disabled={label.trim() === source.label} />}
      >
        {(control) => <input {...control} className="input input--wide" value={label} maxLength={LIMITS.SourcePatchBody.label.maxLength} onChange={(e) => setLabel(e.target.value)} />}
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
          <SubmitActions
            mutation={save}
            label="Set cadence"
            secondary
            clear={
              source.pollIntervalMinutes !== null
                ? {
                    label: 'Use workspace cadence',
                    onClick: () => {
                      setLocalError(null);
                      save.mutate({ id: source.id, body: { pollIntervalMinutes: null } });
                    },
                  }
                : null
            }
          />
        }
      >
        {(control) => (
          <input {...control} className="input input--number" type="number" min={LIMITS.SourcePatchBody.pollIntervalMinutes.minimum} max={LIMITS.SourcePatchBody.pollIntervalMinutes.maximum} value={minutes} placeholder="workspace" onChange={(e) => setMinutes(e.target.value)} />
        )}
      </Field>
      <FormError error={save.error} fields={['pollIntervalMinutes']} />
    </form>
  );
}

function PauseForm({ source }: { source: Source }) {
  const save = useSetSourcePause();
  const bulk = useBulkSources();
  return (
    <div className="stack stack--tight">
      <PauseUntilForm
        pausedUntilAt={source.pausedUntilAt}
        pausedIndefinitely={source.paused}
        hint={`Stops polling now and resumes by itself, at most ${MAX_PAUSE_DAYS} days ahead.`}
        field="pausedUntilAt"
        resumeLabel="Resume now"
        mutation={save}
        onChange={(pausedUntilAt, done) => save.mutate({ id: source.id, pausedUntilAt }, { onSuccess: done })}
        secondary
      >
        {!source.paused ? (
          <button type="button" className="button button--ghost" onClick={() => bulk.mutate({ action: 'pause', sourceIds: [source.id] })} disabled={bulk.isPending}>
            Pause indefinitely
          </button>
        ) : null}
      </PauseUntilForm>
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
        after={<SubmitActions mutation={save} label="Save keywords" secondary />}
      >
        {(control) => <input {...control} className="input input--wide" value={exclude} onChange={(e) => setExclude(e.target.value)} />}
      </Field>
      <FormError error={save.error} fields={['includeKeywords', 'excludeKeywords']} />
    </form>
  );
}

/** Everything about one source, opened under its row: label, cadence, pause, keywords, delete. */
/** `level` is its heading's: 2 in a row of the table (under the page's h1), 3 in a card with its own h2. */
export function SourceEditor({ source, onDeleted, level = 2 }: { source: Source; onDeleted: () => void; level?: 2 | 3 }) {
  const remove = useBulkSources();
  const Heading = level === 2 ? 'h2' : 'h3';
  const feed = isFeedType(source.type);
  return (
    <div className="source-editor">
      <div className="source-editor__grid">
        <LabelForm source={source} />
        {feed ? <CadenceForm source={source} /> : null}
        {feed ? <PauseForm source={source} /> : null}
        {source.type !== 'manual' ? <KeywordsForm source={source} /> : null}
      </div>
      <section className="source-editor__ingest" aria-labelledby={`ingest-${source.id}`}>
        <Heading className="setting__title" id={`ingest-${source.id}`}>
          Push signals to this source
        </Heading>
        <ScopedIngestUrls sourceId={source.id} sourceLabel={source.label} />
        <p className="muted small">
          The workspace webhook URL (
          <Link to="/settings/$section" params={{ section: 'integrations' }} resetScroll={false}>
            Settings › Integrations
          </Link>
          ) works too, with <code>sourceId</code> in the body, but it carries the workspace token, which opens the whole API.
        </p>
      </section>
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
