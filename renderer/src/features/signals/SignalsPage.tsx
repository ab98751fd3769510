import { ClosableCard } from '../../components/ClosableCard';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { Field } from '../../components/Field';
import { FormError, fieldError } from '../../components/FormError';
import { PageHeader, QueryState } from '../../components/Page';
import { AppliedTemplateNotice } from '../onboarding/AppliedTemplateNotice';
import { SelectAllCheckbox } from '../../components/SelectAllCheckbox';
import { SuccessNotice } from '../../components/SuccessNotice';
import { plural } from '../../lib/format';
import { useSelection } from '../../lib/use-selection';
import { sourceOptionsQuery } from '../sources/api';
import { useCursorList } from '../../api/cursor-list';
import { LoadMore } from '../../components/LoadMore';
import { ConfirmButton } from '../../components/ConfirmButton';
import { signalQuery, signalsList, useBulkSignals, type Signal } from './api';
import { AddSignalForm } from './components/AddSignalForm';
import { SignalItem } from './components/SignalItem';
import { LIMITS } from '../../api/rules.gen';
import { ApiError } from '../../api/client';
import './signals.css';

function IntegrationsLink({ children }: { children: string }) {
  return (
    // resetScroll off: the Settings page scrolls to the section itself, the router must not scroll back to the top after it.
    <Link to="/settings/$section" params={{ section: 'integrations' }} resetScroll={false}>
      {children}
    </Link>
  );
}

function EmptyState({ filtered, onAdd }: { filtered: boolean; onAdd: () => void }) {
  if (filtered) {
    return (
      <div className="card card--padded empty">
        <p>No signals from this source yet.</p>
        <p className="muted small">
          Feeds bring their items on their cadence; use <strong>Poll now</strong> on the <Link to="/sources">Sources</Link> page to fetch at once.
        </p>
      </div>
    );
  }
  return (
    <div className="card card--padded empty empty--guide">
      <h2 className="empty__title">No signals yet</h2>
      <p className="muted">Signals are what the desk works from. They arrive in three ways:</p>
      <ol className="empty__steps">
        <li>
          <strong>
            <Link to="/sources">Add a source</Link>
          </strong>
          : an RSS or Atom feed is polled on its cadence, and each new item becomes a signal.
        </li>
        <li>
          <strong>Push them in</strong>: POST JSON from a script or another service to the inbound webhook. Its URL and a curl example are in{' '}
          <IntegrationsLink>Settings › Integrations</IntegrationsLink>.
        </li>
        <li>
          <strong>Write one by hand</strong>:{' '}
          <button type="button" className="link-button" onClick={onAdd}>
            add a signal
          </button>
          .
        </li>
      </ol>
    </div>
  );
}

/** The API takes this many ids per bulk call at most. */
const MAX_BULK_IDS = LIMITS.SignalBulkBody.signalIds.maxItems;

function BulkBar({ signals, selected, onClear, onSelectAll }: { signals: Signal[]; selected: string[]; onClear: () => void; onSelectAll: (on: boolean) => void }) {
  const bulk = useBulkSignals();
  const [result, setResult] = useState('');
  const ids = selected.slice(0, MAX_BULK_IDS);
  const run = (action: 'pin' | 'delete', pinned = true) =>
    bulk.mutate(
      { action, signalIds: ids, pinned },
      {
        onSuccess: (r) => {
          setResult(action === 'delete' ? `Deleted ${plural(r.affected, 'signal')}.` : `${pinned ? 'Pinned' : 'Unpinned'} ${plural(r.affected, 'signal')}.`);
          if (action === 'delete') onClear();
        },
      },
    );
  return (
    <div className="bulk-bar card" role="toolbar" aria-label="Bulk actions">
      <label className="checkbox bulk-bar__all">
        <SelectAllCheckbox total={signals.length} selected={selected.length} onChange={onSelectAll} />
        <span className="bulk-bar__count">{selected.length ? `${selected.length} selected` : 'Select all'}</span>
      </label>
      <button type="button" className="button button--secondary button--small" disabled={!ids.length || bulk.isPending} onClick={() => run('pin', true)}>
        Pin selected
      </button>
      <button type="button" className="button button--secondary button--small" disabled={!ids.length || bulk.isPending} onClick={() => run('pin', false)}>
        Unpin selected
      </button>
      <ConfirmButton
        label="Delete selected"
        question={`Delete ${plural(ids.length, 'signal')}? This cannot be undone.`}
        confirmLabel="Delete"
        disabled={!ids.length || bulk.isPending}
        onConfirm={() => run('delete')}
      />
      <span className="bulk-bar__result" role="status" aria-live="polite">
        {bulk.error ? <span className="text-danger">{bulk.error.message}</span> : selected.length > MAX_BULK_IDS ? `Bulk actions apply to the first ${MAX_BULK_IDS} selected.` : result}
      </span>
    </div>
  );
}

/**
 * The signal a search hit points at (/signals?signal=<id>), shown above the list: it may be far down
 * a list of thousands, past the loaded pages. The same signal is marked in the list when it is there.
 */
function FocusedSignal({ id, selected, onSelect }: { id: string; selected: boolean; onSelect: (on: boolean) => void }) {
  const signal = useQuery(signalQuery(id));
  const navigate = useNavigate();
  const box = useRef<HTMLElement>(null);
  const found = signal.data !== undefined;
  useEffect(() => {
    if (found) box.current?.scrollIntoView?.({ block: 'nearest' });
  }, [found, id]);
  return (
    <section className="card card--padded signal-focus" aria-label="Signal from search" ref={box}>
      <div className="signal-focus__head">
        <h2 className="signal-focus__title">From your search</h2>
        <button type="button" className="button button--ghost button--small" onClick={() => void navigate({ to: '/signals', search: {} })}>
          Close
        </button>
      </div>
      {signal.error ? (
        <p className="muted">{signal.error instanceof ApiError && signal.error.status === 404 ? 'This signal is no longer here: it has been deleted.' : signal.error.message}</p>
      ) : signal.data ? (
        <ul className="signal-list" aria-label="Signal from search">
          <SignalItem signal={signal.data} selected={selected} onSelect={onSelect} focused level={3} />
        </ul>
      ) : (
        <QueryState isPending error={null} />
      )}
    </section>
  );
}

export function SignalsPage() {
  // Not strict: the page also renders outside the app's route tree (its tests).
  const focusId = useSearch({ strict: false }).signal;
  const [sourceId, setSourceId] = useState('');
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState('');
  const list = useCursorList(signalsList({ sourceId }));
  const sources = useQuery(sourceOptionsQuery());
  const signals = list.items;
  const { isPicked, selected, select, selectAll, clear } = useSelection(signals);
  const filteredSource = sources.data?.find((s) => s.id === sourceId);

  const openForm = () => {
    setAdded('');
    setAdding(true);
  };

  return (
    <div className="page">
      <PageHeader
        title="Signals"
        description="What the desk has collected from your sources, the inbound webhook and you, newest first. New ones appear by themselves."
        actions={
          adding ? null : (
            <button type="button" className="button" onClick={openForm}>
              New signal
            </button>
          )
        }
      />
      <AppliedTemplateNotice on="signals" />

      <div className="stack">
        {adding ? (
          <ClosableCard title={'New signal'} onClose={() => setAdding(false)}>
            <AddSignalForm
              onDone={(title) => {
                setAdding(false);
                setAdded(`Added “${title}”.`);
              }}
            />
          </ClosableCard>
        ) : null}
        <SuccessNotice message={added} />
        {focusId ? <FocusedSignal id={focusId} selected={isPicked(focusId)} onSelect={(on) => select(focusId, on)} /> : null}

        {sourceId !== '' || (sources.data?.length ?? 0) > 0 ? (
          <div className="filters card card--padded" role="search">
            <Field label="Source" error={fieldError(list.error, 'sourceId')}>
              {(control) => (
                <select
                  {...control}
                  className="input input--select"
                  value={sourceId}
                  onChange={(e) => {
                    setSourceId(e.target.value);
                    clear();
                  }}
                >
                  <option value="">All sources</option>
                  {(sources.data ?? []).map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <p className="filters__summary muted small" aria-live="polite">
              {list.data
                ? `${plural(signals.length, 'signal')}${list.hasNextPage ? ' shown' : ''}${filteredSource ? ` from ${filteredSource.label}` : ''}${list.isFetching && !list.isFetchingNextPage ? ' · refreshing…' : ''}`
                : ''}
            </p>
          </div>
        ) : null}

        {list.isPending ? <QueryState isPending error={null} /> : null}
        {list.error && !list.isFetchNextPageError ? <FormError error={list.error} fields={['sourceId']} /> : null}

        {list.data ? (
          signals.length === 0 ? (
            <EmptyState filtered={sourceId !== ''} onAdd={openForm} />
          ) : (
            <>
              <BulkBar
                signals={signals}
                selected={selected}
                onClear={clear}
                onSelectAll={selectAll}
              />
              <ul className="signal-list" aria-label="Signals">
                {signals.map((s) => (
                  <SignalItem key={s.id} signal={s} selected={isPicked(s.id)} onSelect={(on) => select(s.id, on)} focused={s.id === focusId} />
                ))}
              </ul>
              <LoadMore list={list} end="That is all of them." />
            </>
          )
        ) : null}
      </div>
    </div>
  );
}
