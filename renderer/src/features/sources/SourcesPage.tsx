import { ClosableCard } from '../../components/ClosableCard';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { FormError } from '../../components/FormError';
import { PageHeader, QueryState } from '../../components/Page';
import { SectionNav, scrollToSection } from '../../components/SectionNav';
import { SuccessNotice } from '../../components/SuccessNotice';
import { quietnessQuery, sourceQuery, sourcesList, type QuietSource } from './api';
import { useCursorList } from '../../api/cursor-list';
import { LoadMore } from '../../components/LoadMore';
import { AddSourcePanel } from './components/AddSourcePanel';
import { CadenceOverviewSection } from './components/CadenceOverviewSection';
import { QuietnessSection } from './components/QuietnessSection';
import { ScheduledPausesSection } from './components/ScheduledPausesSection';
import { SourceEditor } from './components/SourceEditor';
import { SourcesTable } from './components/SourcesTable';
import './sources.css';

const SECTIONS = [
  { id: 'sources-table', label: 'Sources' },
  { id: 'cadence', label: 'Cadence' },
  { id: 'quietness', label: 'Quiet feeds' },
  { id: 'scheduled-pauses', label: 'Scheduled pauses' },
];

/**
 * A source opened by URL (/sources/$sourceId) that is not a row of the loaded list: its editor in a
 * card above the table, or why it cannot be shown.
 */
function SourceCard({ id, onClose }: { id: string; onClose: () => void }) {
  const source = useQuery(sourceQuery(id));
  return (
    <ClosableCard title={source.data ? source.data.label : 'Source'} onClose={onClose}>
      {source.isPending ? <p className="muted loading">Loading…</p> : null}
      {source.error ? <FormError error={source.error} /> : null}
      {source.data ? <SourceEditor source={source.data} onDeleted={onClose} level={3} /> : null}
    </ClosableCard>
  );
}

export function SourcesPage() {
  const { sourceId } = useParams({ strict: false });
  const navigate = useNavigate();
  // Opening or closing a source's editor keeps the list where it is.
  const open = (id: string | null) => void navigate(id ? { to: '/sources/$sourceId', params: { sourceId: id }, resetScroll: false } : { to: '/sources', resetScroll: false });
  const list = useCursorList(sourcesList());
  const sources = list.items;
  const quietness = useQuery(quietnessQuery());
  // null until the list loads: an empty desk opens the form, and it stays open until saved or cancelled
  // (it must not vanish when the new source makes the list non-empty, before its save has reported back).
  const [adding, setAdding] = useState<boolean | null>(null);
  const [added, setAdded] = useState('');
  const quiet = useMemo(() => new Map<string, QuietSource>((quietness.data?.sources ?? []).map((q) => [q.sourceId, q])), [quietness.data]);
  const unackedQuiet = (quietness.data?.sources ?? []).filter((q) => !q.acked);
  if (adding === null && list.data) setAdding(sources.length === 0);
  const empty = Boolean(list.data) && sources.length === 0;
  const showForm = adding === true;
  const listed = Boolean(sourceId && sources.some((s) => s.id === sourceId));
  // A deep link scrolls its source's editor into view once the list has it.
  useEffect(() => {
    if (listed && sourceId) document.getElementById(`source-editor-${sourceId}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [listed, sourceId]);

  return (
    <div className="page page--wide">
      <PageHeader
        title="Sources"
        description="Where signals come from. Feeds are polled on their cadence and each new item becomes a signal; manual sources take signals from you or the inbound webhook."
        actions={
          showForm ? null : (
            <button
              type="button"
              className="button"
              onClick={() => {
                setAdded('');
                setAdding(true);
              }}
            >
              Add source
            </button>
          )
        }
      />
      <SectionNav label="Sources sections" sections={SECTIONS} />

      <div className="stack">
        {unackedQuiet.length > 0 ? (
          <div className="notice notice--warning" role="alert">
            <span>
              {unackedQuiet.length === 1 ? (
                <>
                  <strong>{unackedQuiet[0].label}</strong> has gone quiet: no new signal for {unackedQuiet[0].quietForDays} days.
                </>
              ) : (
                <>
                  <strong>{unackedQuiet.length} feeds</strong> have gone quiet.
                </>
              )}
            </span>
            <button type="button" className="button button--secondary button--small" onClick={() => scrollToSection('quietness')}>
              Review
            </button>
          </div>
        ) : null}

        <SuccessNotice message={added} />

        {showForm ? (
          <section className="card card--padded" aria-labelledby="add-source-title">
            <h2 className="card__title" id="add-source-title">
              Add a source
            </h2>
            <p className="card__description add-source__intro">Paste a feed URL and preview it before saving: you will see the feed's title and its latest items.</p>
            <AddSourcePanel
              onAdded={(s) => {
                setAdding(false);
                setAdded(
                  s.type === 'file' ? `Added ${s.label}; its file was imported.` : s.type === 'manual' ? `Added ${s.label}.` : `Added ${s.label}; it is polled within a minute, or use Poll now.`,
                );
              }}
              onCancel={empty ? undefined : () => setAdding(false)}
            />
          </section>
        ) : null}

        {sourceId && list.data && !listed ? <SourceCard id={sourceId} onClose={() => open(null)} /> : null}
        <QueryState isPending={list.isPending} error={list.isFetchNextPageError ? null : list.error} onRetry={() => void list.refetch()} />
        {sources.length > 0 ? (
          <SourcesTable sources={sources} total={list.firstPage?.total} more={list.hasNextPage} quiet={quiet} openId={sourceId} onOpen={open} footer={<LoadMore list={list} />} />
        ) : null}
        {empty && !showForm ? (
          <div className="card card--padded empty">
            <p>No sources yet. Add a feed and its items arrive as signals on its cadence.</p>
          </div>
        ) : null}

        <CadenceOverviewSection />
        <QuietnessSection />
        <ScheduledPausesSection />
      </div>
    </div>
  );
}
