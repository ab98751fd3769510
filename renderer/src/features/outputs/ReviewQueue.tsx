import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { ConfirmButton } from '../../components/ConfirmButton';
import { LoadMore } from '../../components/LoadMore';
import type { useCursorList } from '../../api/cursor-list';
import { OutputBadges } from './OutputBadges';
import { useBulkDecideOutputs, useDecideOutput, type ArtifactPage, type QueueRow } from './api';

type QueueList = ReturnType<typeof useCursorList<ArtifactPage, QueueRow>>;

const KEYS: [string, string][] = [
  ['j / k', 'next / previous output'],
  ['a', 'approve the selected output'],
  ['e', 'archive the selected output'],
  ['o / Enter', 'open the selected output'],
  ['?', 'show or hide this help'],
];

function HelpPanel() {
  return (
    <section className="card card--padded queue-help" aria-label="Keyboard shortcuts">
      <h2 className="small">Keyboard shortcuts</h2>
      <dl>
        {KEYS.map(([k, what]) => (
          <div key={k}>
            <dt>
              <kbd>{k}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/**
 * The ready outputs as a keyboard-first review queue: one selected row, j/k to move, a/e to decide
 * (the selection then stays at the same position, which is the next output), o/Enter to open.
 * Keys are ignored while typing in a field (react-hotkeys-hook skips form tags by default).
 * Focus follows the selection (a roving tabindex on the rows' titles): a key that moves or decides
 * puts focus on the selected row's title, so a screen reader reads it; focusing a row selects it.
 */
export function ReviewQueue({ list, filtered }: { list: QueueList; filtered: boolean }) {
  const rows = list.items;
  // Bulk decisions take every ready output, filtered out or not: the count and the question say so.
  const waiting = list.firstPage?.approvalAging.waiting ?? rows.length;
  const plural = waiting === 1 ? 'output' : 'outputs';
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [help, setHelp] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const decide = useDecideOutput();
  const bulk = useBulkDecideOutputs();
  const navigate = useNavigate();
  const rowRefs = useRef(new Map<string, HTMLLIElement>());
  // Set by a key (or a decision) that changed the selection: the next render moves focus to it.
  const focusNext = useRef(false);

  // The selection follows its id; with none (or a row that left the list) the first row is selected.
  const found = rows.findIndex((r) => r.id === selectedId);
  const index = rows.length === 0 ? -1 : Math.max(0, found);
  const selected = index >= 0 ? rows[index] : null;

  useEffect(() => {
    if (!selected) return;
    const row = rowRefs.current.get(selected.id);
    row?.scrollIntoView?.({ block: 'nearest' });
    if (focusNext.current) {
      focusNext.current = false;
      row?.querySelector<HTMLElement>('.output-item__title')?.focus({ preventScroll: true });
    }
  }, [selected]);

  const move = (by: number) => {
    if (rows.length === 0) return;
    const next = Math.max(0, Math.min(rows.length - 1, index + by));
    focusNext.current = true;
    setSelectedId(rows[next].id);
    // The same row again (the first or last): the effect does not run, so focus it here.
    if (rows[next].id === selected?.id) rowRefs.current.get(selected.id)?.querySelector<HTMLElement>('.output-item__title')?.focus({ preventScroll: true });
  };

  const run = (row: QueueRow | null, decision: 'approve' | 'archive') => {
    if (!row || decide.isPending) return;
    const at = rows.indexOf(row);
    decide.mutate(
      { id: row.id, decision },
      {
        onSuccess: () => {
          // Select the row after it now; the refreshed list no longer holds the decided one.
          const next = rows[at + 1] ?? rows[at - 1] ?? null;
          focusNext.current = true;
          setSelectedId(next ? next.id : null);
          setNotice(`${decision === 'approve' ? 'Approved' : 'Archived'} “${row.title}”.`);
        },
        onError: (err) => setNotice(`Could not ${decision} “${row.title}”: ${err.message}`),
      },
    );
  };

  const open = () => {
    if (selected) void navigate({ to: '/outputs/$artifactId', params: { artifactId: selected.id } });
  };

  useHotkeys('j', () => move(1), [rows, index]);
  useHotkeys('k', () => move(-1), [rows, index]);
  useHotkeys('a', () => run(selected, 'approve'), [selected, rows, decide.isPending]);
  useHotkeys('e', () => run(selected, 'archive'), [selected, rows, decide.isPending]);
  useHotkeys('o', open, [selected]);
  // Enter on a focused button or link already means that control; only elsewhere does it open the row.
  useHotkeys('enter', (e) => (e.target instanceof Element && e.target.closest('button, a') ? undefined : open()), [selected]);
  useHotkeys('shift+slash', () => setHelp((h) => !h));

  const runBulk = (action: 'approve_all' | 'archive_all') =>
    bulk.mutate(action, {
      onSuccess: (r) => setNotice(`${r.status === 'approved' ? 'Approved' : 'Archived'} ${r.decided} output${r.decided === 1 ? '' : 's'}.`),
      onError: (err) => setNotice(`Could not decide them all: ${err.message}`),
    });

  return (
    <div className="stack">
      <div className="queue-bar">
        <p className="muted small">
          Keys: <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>a</kbd> approve, <kbd>e</kbd> archive, <kbd>o</kbd> open, <kbd>?</kbd> help.
        </p>
        <span className="queue-bar__bulk">
          <ConfirmButton label="Approve all" question={`Approve all ${waiting} ready ${plural}?`} confirmLabel="Approve all" disabled={bulk.isPending || waiting === 0} onConfirm={() => runBulk('approve_all')} />
          <ConfirmButton label="Archive all" question={`Archive all ${waiting} ready ${plural}?`} confirmLabel="Archive all" disabled={bulk.isPending || waiting === 0} onConfirm={() => runBulk('archive_all')} />
        </span>
      </div>
      {notice ? (
        <p className="queue-notice small" role="status">
          {notice}
        </p>
      ) : null}
      {help ? <HelpPanel /> : null}
      {rows.length === 0 ? (
        <div className="empty card card--padded">
          {filtered ? (
            <p>No ready output matches these filters.</p>
          ) : (
            <>
              <p>Nothing waits for review.</p>
              <p className="muted small">Add signals, then press Run now in the header: the loop turns them into tasks and drafts.</p>
            </>
          )}
        </div>
      ) : (
        <>
          <ul className="output-list" aria-label="Outputs">
            {rows.map((o) => (
              <li
                key={o.id}
                ref={(el) => {
                  if (el) rowRefs.current.set(o.id, el);
                  else rowRefs.current.delete(o.id);
                }}
                className={`output-item${o.id === selected?.id ? ' is-selected' : ''}`}
                aria-current={o.id === selected?.id ? 'true' : undefined}
                onClick={() => setSelectedId(o.id)}
                onFocus={() => setSelectedId(o.id)}
              >
                <div className="output-item__head">
                  <Link className="output-item__title" to="/outputs/$artifactId" params={{ artifactId: o.id }} tabIndex={o.id === selected?.id ? 0 : -1}>
                    {o.title}
                  </Link>
                  <OutputBadges output={o} />
                </div>
                <div className="output-item__meta muted small">
                  <span>{o.reviewOwner ? `owner ${o.reviewOwner.name}` : 'no owner'}</span>
                  {o.reviewOwnerCapacity ? <span>{o.reviewOwnerCapacity.availability === 'away' ? 'owner away' : `${o.reviewOwnerCapacity.load} on their plate`}</span> : null}
                  {o.taskId ? (
                    <span>
                      for{' '}
                      <Link to="/tasks/$taskId" params={{ taskId: o.taskId }}>
                        {o.taskTitle ?? o.taskId}
                      </Link>
                    </span>
                  ) : null}
                  <span className="output-item__actions">
                    <button type="button" className="button button--small" disabled={decide.isPending} onClick={() => run(o, 'approve')} aria-label={`Approve ${o.title}`}>
                      Approve
                    </button>
                    <button type="button" className="button button--ghost button--small" disabled={decide.isPending} onClick={() => run(o, 'archive')} aria-label={`Archive ${o.title}`}>
                      Archive
                    </button>
                  </span>
                </div>
              </li>
            ))}
          </ul>
          <LoadMore list={list} end={rows.length > 10 ? 'That is all of them.' : null} />
        </>
      )}
    </div>
  );
}
