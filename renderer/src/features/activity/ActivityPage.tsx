import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Field } from '../../components/Field';
import { FormError, fieldError } from '../../components/FormError';
import { LoadMore } from '../../components/LoadMore';
import { useCursorList } from '../../api/cursor-list';
import { QUERY } from '../../api/rules.gen';
import { PageHeader, QueryState } from '../../components/Page';
import { formatDateTime, formatRelative } from '../../lib/format';
import { now } from '../../lib/clock';
import { useDebounced } from '../../lib/use-debounced';
import { BUCKET_LABELS, groupByBucket } from '../preferences/buckets';
import { toggle } from '../preferences/layout';
import { useDashboardPrefs } from '../preferences/use-dashboard-prefs';
import { workspaceQuery } from '../settings/api';
import { activityList, type ActivityRecord } from './api';
import './activity.css';

export function ActivityPage() {
  const [q, setQ] = useState('');
  const [kind, setKind] = useState('');
  const [since, setSince] = useState('');
  const filter = { q: useDebounced(q), kind: useDebounced(kind), since };
  const list = useCursorList(activityList(filter));
  const rows = list.items;
  const kinds = [...new Set(rows.map((r) => r.kind))].sort();
  const filtered = filter.q.trim() !== '' || filter.kind.trim() !== '' || since !== '';
  // Buckets are workspace-timezone days; the viewer's zone until the profile has loaded.
  const timeZone = useQuery(workspaceQuery()).data?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const { prefs, update } = useDashboardPrefs();
  const buckets = groupByBucket(rows, (r: ActivityRecord) => r.createdAt, now(), timeZone);

  return (
    <div className="page page--wide">
      <PageHeader title="Activity" description="The audit trail: every change to the desk, by you or by the desk itself, newest first." />
      <div className="filters card card--padded" role="search">
        <Field label="Search" className="filters__search" error={fieldError(list.error, 'q')}>
          {(control) => <input {...control} className="input input--wide" type="search" value={q} maxLength={QUERY.listActivity.q.maxLength} placeholder="Text in the detail or kind" onChange={(e) => setQ(e.target.value)} />}
        </Field>
        <Field label="Kind" hint="One kind, or several separated by commas" error={fieldError(list.error, 'kind')}>
          {(control) => <input {...control} className="input" list="activity-kinds" value={kind} placeholder="All kinds" onChange={(e) => setKind(e.target.value)} />}
        </Field>
        <datalist id="activity-kinds">
          {kinds.map((k) => (
            <option key={k} value={k} />
          ))}
        </datalist>
        <Field label="Since" hint="From the start of that day, workspace time" error={fieldError(list.error, 'since')}>
          {(control) => <input {...control} className="input" type="date" value={since} onChange={(e) => setSince(e.target.value)} />}
        </Field>
        {filtered ? (
          <button
            type="button"
            className="button button--ghost filters__clear"
            onClick={() => {
              setQ('');
              setKind('');
              setSince('');
            }}
          >
            Clear filters
          </button>
        ) : null}
      </div>

      {list.isPending ? <QueryState isPending error={null} /> : null}
      {list.error && !list.isFetchNextPageError ? <FormError error={list.error} fields={['q', 'kind', 'since']} /> : null}

      {list.data ? (
        rows.length === 0 ? (
          <div className="card card--padded empty">{filtered ? 'No activity matches these filters.' : 'No activity yet.'}</div>
        ) : (
          <div className="card table-card">
            <table className="table" aria-label="Activity log">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Detail</th>
                  <th scope="col">By</th>
                </tr>
              </thead>
              {buckets.map(({ bucket, rows: inBucket }) => {
                const collapsed = prefs.collapsedActivityBuckets.includes(bucket);
                return (
                  <tbody key={bucket} className={`activity-bucket${collapsed ? ' is-collapsed' : ''}`}>
                    <tr className="activity-bucket__head">
                      <th scope="rowgroup" colSpan={4}>
                        <button
                          type="button"
                          className="activity-bucket__toggle"
                          aria-expanded={!collapsed}
                          onClick={() => void update({ collapsedActivityBuckets: toggle(prefs.collapsedActivityBuckets, bucket, !collapsed) })}
                        >
                          <span className="activity-bucket__chevron" aria-hidden="true">
                            ▾
                          </span>
                          {BUCKET_LABELS[bucket]} <span className="muted">({inBucket.length})</span>
                        </button>
                      </th>
                    </tr>
                    {collapsed
                      ? null
                      : inBucket.map((r) => (
                          <tr key={r.id}>
                            <td className="nowrap muted" title={formatDateTime(r.createdAt, true)}>
                              <time dateTime={r.createdAt}>{formatRelative(r.createdAt)}</time>
                            </td>
                            <td>
                              <button type="button" className="kind" title={`Show only ${r.kind}`} onClick={() => setKind(r.kind)}>
                                {r.kind}
                              </button>
                            </td>
                            <td>{r.detail}</td>
                            <td className="nowrap muted">{r.actorLabel}</td>
                          </tr>
                        ))}
                  </tbody>
                );
              })}
            </table>
            <p className="table-card__footer muted small">
              {list.hasNextPage ? `Showing the ${rows.length} most recent entries` : `${rows.length} ${rows.length === 1 ? 'entry' : 'entries'}, back to the first`}
              {list.isFetching && !list.isFetchingNextPage ? ' · refreshing…' : ''}
            </p>
            <LoadMore list={list} />
          </div>
        )
      ) : null}
    </div>
  );
}
