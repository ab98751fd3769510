import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { MEMORY_KIND, QUERY } from '../../api/rules.gen';
import { useCursorList } from '../../api/cursor-list';
import { ClosableCard } from '../../components/ClosableCard';
import { Field } from '../../components/Field';
import { FormError, fieldError } from '../../components/FormError';
import { LoadMore } from '../../components/LoadMore';
import { PageHeader, QueryState } from '../../components/Page';
import { AppliedTemplateNotice } from '../onboarding/AppliedTemplateNotice';
import { SuccessNotice } from '../../components/SuccessNotice';
import { formatDateTime, plural } from '../../lib/format';
import { useDebounced } from '../../lib/use-debounced';
import { useSelection } from '../../lib/use-selection';
import { memoryList, memoryQuery, type MemoryKind } from './api';
import { AddMemoryForm } from './components/AddMemoryForm';
import { MemoryBulkBar } from './components/MemoryBulkBar';
import { StalePanel, TopCostPanel, TopRetrievedPanel } from './components/MemoryInsights';
import { MemoryItem } from './components/MemoryItem';
import './memory.css';

/** The entry a /memory/<id> URL names, opened above the list with its usage charts (archived ones too). */
function OpenedEntry({ id }: { id: string }) {
  const entry = useQuery(memoryQuery(id));
  return (
    <section className="memory-opened" aria-label="Opened entry">
      {entry.isPending ? <QueryState isPending error={null} /> : null}
      {entry.error ? (
        <div className="card card--padded">
          <FormError error={entry.error} />
          <Link to="/memory">Back to all memory</Link>
        </div>
      ) : null}
      {entry.data ? (
        <>
          <div className="memory-opened__head">
            <span className="muted small">
              {entry.data.archivedAt ? `Archived by the stale sweep on ${formatDateTime(entry.data.archivedAt)}: cycles no longer retrieve it.` : 'Opened entry'}
            </span>
            <Link to="/memory" className="button button--ghost button--small">
              Close
            </Link>
          </div>
          <ul className="memory-list">
            <MemoryItem entry={entry.data} selected={false} open />
          </ul>
        </>
      ) : null}
    </section>
  );
}

/**
 * Memory: what the desk keeps across cycles. Add entries, pin, tag and delete them, see which ones
 * the cycles use and what they cost, and which went stale. /memory/<id> opens one entry with its
 * retrieval and cost charts.
 */
export function MemoryPage() {
  const { memoryId } = useParams({ strict: false });
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState('');
  const [kind, setKind] = useState<MemoryKind | ''>('');
  const [tagText, setTagText] = useState('');
  const [qText, setQText] = useState('');
  const tag = useDebounced(tagText.trim().toLowerCase());
  const q = useDebounced(qText);
  const list = useCursorList(memoryList({ kind, tag, q }));
  const entries = list.items;
  const { isPicked, selected, select, selectAll, clear } = useSelection(entries);
  const filtered = kind !== '' || tag !== '' || q.trim() !== '';

  return (
    <div className="page">
      <PageHeader
        title="Memory"
        description="Facts, decisions, preferences and lessons the AI cycles retrieve by relevance. Entries no cycle uses go stale; pin or rate them 9+ to keep them."
        actions={
          adding ? null : (
            <button
              type="button"
              className="button"
              onClick={() => {
                setAdded('');
                setAdding(true);
              }}
            >
              New entry
            </button>
          )
        }
      />
      <AppliedTemplateNotice on="memory" />
      <div className="stack">
        {adding ? (
          <ClosableCard title="New memory entry" onClose={() => setAdding(false)}>
            <AddMemoryForm
              onDone={(title) => {
                setAdding(false);
                setAdded(`Added “${title}”.`);
              }}
            />
          </ClosableCard>
        ) : null}
        <SuccessNotice message={added} />
        {memoryId ? <OpenedEntry id={memoryId} /> : null}

        <div className="memory-insights">
          <TopRetrievedPanel />
          <TopCostPanel />
          <StalePanel />
        </div>

        <div className="filters card card--padded" role="search">
          <Field label="Kind" error={fieldError(list.error, 'kind')}>
            {(control) => (
              <select
                {...control}
                className="input input--select"
                value={kind}
                onChange={(e) => {
                  setKind(e.target.value as MemoryKind | '');
                  clear();
                }}
              >
                <option value="">All kinds</option>
                {MEMORY_KIND.map((k) => (
                  <option key={k} value={k}>
                    {k}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Tag" error={fieldError(list.error, 'tag')}>
            {(control) => <input {...control} className="input" type="search" value={tagText} placeholder="e.g. pricing" onChange={(e) => setTagText(e.target.value)} />}
          </Field>
          <Field label="Search" error={fieldError(list.error, 'q')}>
            {(control) => (
              <input {...control} className="input" type="search" value={qText} maxLength={QUERY.listMemory.q.maxLength} placeholder="Words in title, content or tags" onChange={(e) => setQText(e.target.value)} />
            )}
          </Field>
          <p className="filters__summary muted small" aria-live="polite">
            {list.data ? `${plural(entries.length, 'entry', 'entries')}${list.hasNextPage ? ' shown' : ''}${list.isFetching && !list.isFetchingNextPage ? ' · refreshing…' : ''}` : ''}
          </p>
        </div>

        {list.isPending ? <QueryState isPending error={null} /> : null}
        {list.error && !list.isFetchNextPageError ? <FormError error={list.error} fields={['kind', 'tag', 'q']} /> : null}
        {list.data ? (
          entries.length === 0 ? (
            <div className="card card--padded empty">
              {filtered ? (
                <p>No entries match.</p>
              ) : (
                <>
                  <p>No memory yet.</p>
                  <p className="muted small">Cycles write entries as they work; add what the desk should always know with New entry.</p>
                </>
              )}
            </div>
          ) : (
            <>
              <MemoryBulkBar total={entries.length} selected={selected} onClear={clear} onSelectAll={selectAll} />
              <ul className="memory-list" aria-label="Memory entries">
                {entries.map((m) => (
                  <MemoryItem key={m.id} entry={m} selected={isPicked(m.id)} onSelect={(on) => select(m.id, on)} open={false} />
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
