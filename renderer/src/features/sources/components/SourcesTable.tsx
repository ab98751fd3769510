import { useState, type FormEvent, type ReactNode } from 'react';
import { Field } from '../../../components/Field';
import { FormError, fieldError } from '../../../components/FormError';
import { SelectAllCheckbox } from '../../../components/SelectAllCheckbox';
import { ActionsHeader } from '../../../components/Table';
import { parseWhole, plural } from '../../../lib/format';
import { useSelection } from '../../../lib/use-selection';
import { useBulkCadence, useBulkRename, useBulkSources, type BulkRenameResult, type QuietSource, type Source } from '../api';
import { ConfirmButton } from '../../../components/ConfirmButton';
import { SourceRow } from './SourceRow';
import { LIMITS } from '../../../api/rules.gen';

const CADENCE = LIMITS.BulkCadenceBody.pollIntervalMinutes;
/** The API takes this many ids per bulk call at most. */
const MAX_BULK_IDS = LIMITS.BulkBody.sourceIds.maxItems;

function BulkCadence({ ids, onDone }: { ids: string[]; onDone: (message: string) => void }) {
  const save = useBulkCadence();
  const [minutes, setMinutes] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);
  const send = (pollIntervalMinutes: number | null) =>
    save.mutate(
      { pollIntervalMinutes, sourceIds: ids },
      {
        onSuccess: (r) =>
          onDone(
            `${pollIntervalMinutes === null ? 'Workspace cadence' : `Every ${pollIntervalMinutes} min`} set on ${plural(r.updated.length, 'source')}${r.unchanged.length ? ` (${r.unchanged.length} already had it)` : ''}. Manual and file sources are never polled.`,
          ),
      },
    );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = parseWhole(minutes);
    setLocalError(value === null ? 'Enter whole minutes' : null);
    if (value !== null) send(value);
  };
  return (
    <form className="inline-form" onSubmit={submit} noValidate aria-label="Set cadence of the selected sources">
      <Field
        label="Poll selected every (minutes)"
        hint={`${CADENCE.minimum}–${CADENCE.maximum}; the plan floor still applies.`}
        error={localError ?? fieldError(save.error, 'pollIntervalMinutes')}
        after={
          <>
            <button type="submit" className="button button--secondary" disabled={save.isPending}>
              Apply cadence
            </button>
            <button type="button" className="button button--ghost" disabled={save.isPending} onClick={() => send(null)}>
              Use workspace cadence
            </button>
          </>
        }
      >
        {(control) => <input {...control} className="input input--number" type="number" min={CADENCE.minimum} max={CADENCE.maximum} value={minutes} onChange={(e) => setMinutes(e.target.value)} />}
      </Field>
      <FormError error={save.error} fields={['pollIntervalMinutes']} />
    </form>
  );
}

function RenamePreview({ result }: { result: BulkRenameResult }) {
  if (result.matches.length === 0 && result.skipped.length === 0) return <p className="muted small">No label contains that text.</p>;
  return (
    <ul className="rename-list" aria-label={result.preview ? 'Rename preview' : 'Renamed'}>
      {result.matches.map((m) => (
        <li key={m.sourceId}>
          <span className="rename-list__old">{m.oldLabel}</span> → <strong>{m.newLabel}</strong>
        </li>
      ))}
      {result.skipped.map((m) => (
        <li key={m.sourceId} className="is-skipped">
          <span className="rename-list__old">{m.oldLabel}</span> → skipped: {m.reason}
        </li>
      ))}
    </ul>
  );
}

function BulkRename({ ids, onDone }: { ids: string[]; onDone: (message: string) => void }) {
  const rename = useBulkRename();
  const [findText, setFind] = useState('');
  const [replaceText, setReplace] = useState('');
  const [caseSensitive, setCaseSensitive] = useState(false);
  const body = { findText, replaceText, caseSensitive, ...(ids.length ? { sourceIds: ids } : {}) };
  // A preview answers for exactly these inputs; change one and it must be run again before applying.
  const previewed = rename.data?.preview && JSON.stringify(rename.variables) === JSON.stringify({ ...body, preview: true });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    rename.mutate({ ...body, preview: true });
  };
  const apply = () =>
    rename.mutate(
      { ...body, preview: false },
      { onSuccess: (r) => onDone(`Renamed ${plural(r.matches.length, 'source')}${r.skipped.length ? `; ${r.skipped.length} skipped` : ''}.`) },
    );
  return (
    <form className="stack stack--tight" onSubmit={submit} noValidate aria-label="Rename sources">
      <div className="inline-form">
        <Field label="Find" error={fieldError(rename.error, 'findText')}>
          {(control) => <input {...control} className="input" value={findText} maxLength={LIMITS.BulkRenameBody.findText.maxLength} onChange={(e) => setFind(e.target.value)} />}
        </Field>
        <Field label="Replace with" hint="Empty removes the text." error={fieldError(rename.error, 'replaceText')}>
          {(control) => <input {...control} className="input" value={replaceText} maxLength={LIMITS.BulkRenameBody.replaceText.maxLength} onChange={(e) => setReplace(e.target.value)} />}
        </Field>
        <label className="checkbox">
          <input type="checkbox" checked={caseSensitive} onChange={(e) => setCaseSensitive(e.target.checked)} />
          Match case
        </label>
        <div className="actions inline-form__buttons">
          <button type="submit" className="button button--secondary" disabled={rename.isPending || findText === ''}>
            Preview rename
          </button>
          <button type="button" className="button" disabled={rename.isPending || !previewed || rename.data?.matches.length === 0} onClick={apply}>
            Apply rename
          </button>
        </div>
      </div>
      <p className="muted small">{ids.length ? `In the ${plural(ids.length, 'selected source')}.` : 'In all sources (select some to narrow it).'}</p>
      <FormError error={rename.error} fields={['findText', 'replaceText']} />
      {rename.data && previewed ? <RenamePreview result={rename.data} /> : null}
    </form>
  );
}

/** The sources table with selection and bulk actions; selection survives refetches but forgets deleted sources. */
export function SourcesTable({
  sources,
  total,
  more,
  quiet,
  openId,
  onOpen,
  footer,
}: {
  /** The loaded pages of the list. */
  sources: Source[];
  /** How many the desk has, when the API says. */
  total: number | undefined;
  /** Whether another page can be loaded. */
  more: boolean;
  quiet: Map<string, QuietSource>;
  /** The source whose editor is open under its row (the URL's /sources/$sourceId). */
  openId: string | undefined;
  onOpen: (id: string | null) => void;
  /** Under the table: the "Load more" of the list. */
  footer?: ReactNode;
}) {
  const { isPicked, selected, select, selectAll, clear } = useSelection(sources);
  const [panel, setPanel] = useState<'cadence' | 'rename' | null>(null);
  const [result, setResult] = useState('');
  const bulk = useBulkSources();
  const bulkIds = selected.slice(0, MAX_BULK_IDS);

  const runBulk = (action: 'pause' | 'resume' | 'delete') =>
    bulk.mutate(
      { action, sourceIds: bulkIds },
      {
        onSuccess: (r) => {
          const verb = action === 'pause' ? 'Paused' : action === 'resume' ? 'Resumed' : 'Deleted';
          setResult(`${verb} ${plural(r.changed.length, 'source')}${r.unchanged.length ? ` (${r.unchanged.length} already ${action === 'pause' ? 'paused' : 'running'})` : ''}.`);
          if (action === 'delete') clear();
        },
      },
    );
  const togglePanel = (p: 'cadence' | 'rename') => {
    setResult('');
    setPanel((cur) => (cur === p ? null : p));
  };

  return (
    <div className="card table-card" id="sources-table">
      <div className="bulk-bar" role="toolbar" aria-label="Bulk actions">
        <span className="bulk-bar__count">{selected.length ? `${selected.length} selected` : 'Select sources for bulk actions'}</span>
        <button type="button" className="button button--secondary button--small" disabled={!selected.length || bulk.isPending} onClick={() => runBulk('pause')}>
          Pause
        </button>
        <button type="button" className="button button--secondary button--small" disabled={!selected.length || bulk.isPending} onClick={() => runBulk('resume')}>
          Resume
        </button>
        <button type="button" className="button button--secondary button--small" disabled={!selected.length} aria-pressed={panel === 'cadence'} onClick={() => togglePanel('cadence')}>
          Set cadence…
        </button>
        <button type="button" className="button button--secondary button--small" aria-pressed={panel === 'rename'} onClick={() => togglePanel('rename')}>
          Rename…
        </button>
        <ConfirmButton
          label="Delete"
          question={`Delete ${plural(selected.length, 'source')}? Their signals stay.`}
          confirmLabel="Delete"
          disabled={!selected.length || bulk.isPending}
          onConfirm={() => runBulk('delete')}
        />
        <span className="bulk-bar__result" role="status" aria-live="polite">
          {result}
        </span>
      </div>
      {bulk.error ? (
        <div className="bulk-panel">
          <FormError error={bulk.error} />
        </div>
      ) : null}
      {panel === 'cadence' && selected.length ? (
        <div className="bulk-panel">
          <BulkCadence ids={bulkIds} onDone={setResult} />
        </div>
      ) : null}
      {panel === 'rename' ? (
        <div className="bulk-panel">
          <BulkRename ids={bulkIds} onDone={setResult} />
        </div>
      ) : null}
      <div className="table-scroll">
        <table className="table table--sources" aria-label="Sources">
          <thead>
            <tr>
              <th scope="col" className="table__check">
                <SelectAllCheckbox label="Select all sources" total={sources.length} selected={selected.length} onChange={selectAll} />
              </th>
              <th scope="col">Source</th>
              <th scope="col">Status</th>
              <th scope="col">Next poll · cadence</th>
              <ActionsHeader />
            </tr>
          </thead>
          <tbody>
            {sources.map((s) => (
              <SourceRow
                key={s.id}
                source={s}
                quiet={quiet.get(s.id)}
                selected={isPicked(s.id)}
                onSelect={(on) => select(s.id, on)}
                expanded={openId === s.id}
                onToggle={() => onOpen(openId === s.id ? null : s.id)}
              />
            ))}
          </tbody>
        </table>
      </div>
      <p className="table-card__footer muted small">
        {total !== undefined && total > sources.length
          ? `Showing the ${sources.length} newest of ${total} sources`
          : more
            ? `Showing the ${sources.length} newest sources`
            : plural(sources.length, 'source')}
        {selected.length > MAX_BULK_IDS ? ` · bulk actions apply to the first ${MAX_BULK_IDS} selected` : ''}
      </p>
      {footer}
    </div>
  );
}
