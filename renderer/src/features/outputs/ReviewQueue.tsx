import { useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { ConfirmButton } from '../../components/ConfirmButton';
import { LoadMore } from '../../components/LoadMore';
import type { useCursorList } from '../../api/cursor-list';
import { announce, holdDecision, isHeld, useDecisionHolds } from './decision-holds';
import { HoldNotice } from './HoldNotice';
import { KeyHelp, QUEUE_KEYS } from './KeyHelp';
import { OutputPreview, canDecide } from './OutputPreview';
import { QueueRows } from './QueueRows';
import { useReopen } from './use-reopen';
import type { Artifact, ArtifactPage, ArtifactStatus, Decision, QueueRow } from './api';

type QueueList = ReturnType<typeof useCursorList<ArtifactPage, QueueRow>>;

/**
 * Outputs as a split view: the list on one side, the selected output (text, changes, sources,
 * versions, actions) on the other. j/k move both; a approves, e archives (held with an Undo, see
 * decision-holds.ts), i edits in place, r reopens a decided one, o/Enter opens the full page, ? shows
 * the keys. The selection is in the URL (?selected=), so going back from the full page returns to it.
 * Keys are ignored while typing in a field (react-hotkeys-hook skips form tags), and the deciding keys
 * are off while the edit box is open. Focus follows the selection: a key that moves or decides puts
 * focus on the selected row's title, so a screen reader reads it.
 */
export function ReviewQueue({ list, status, filtered }: { list: QueueList; status: ArtifactStatus; filtered: boolean }) {
  const search = useSearch({ from: '/outputs' });
  const navigate = useNavigate({ from: '/outputs' });
  const holds = useDecisionHolds((s) => s.holds);
  const [selectedId, setSelectedId] = useState<string | null>(search.selected ?? null);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [help, setHelp] = useState(false);
  const reopen = useReopen();
  const rowRefs = useRef(new Map<string, HTMLLIElement>());
  // Set by a key (or a decision) that changed the selection: the next render moves focus to it.
  const focusNext = useRef(false);

  const queue = status === 'ready';
  const all = list.items;
  // A held decision hides its output from the queue at once (a held "all" hides every one).
  const hidden = (id: string) => queue && isHeld(holds, id);
  const rows = all.filter((r) => !hidden(r.id));
  // Bulk decisions take every ready output, filtered out or not: the count and the question say so.
  const bulkHeld = holds.some((h) => h.what.kind === 'bulk');
  const shownWaiting = bulkHeld ? 0 : Math.max(0, (list.firstPage?.approvalAging.waiting ?? all.length) - holds.length);
  const plural = shownWaiting === 1 ? 'output' : 'outputs';

  // The selected row: the chosen one; when a decision hid it, the next one after it (else the one
  // before); when an edit replaced it, its new version; with none chosen, or one no longer listed, the first.
  const held = selectedId !== null && hidden(selectedId);
  const at = selectedId === null ? -1 : all.findIndex((r) => r.id === selectedId);
  const after = held && at >= 0 ? (all.slice(at + 1).find((r) => !hidden(r.id)) ?? all.slice(0, at).reverse().find((r) => !hidden(r.id))) : undefined;
  // An edit swaps a row for its new version at once: the selection follows it.
  const selected = rows.find((r) => r.id === selectedId) ?? after ?? rows.find((r) => r.parentArtifactId === selectedId) ?? rows[0] ?? null;
  const index = selected ? rows.indexOf(selected) : -1;

  // A hidden selection moves on for good (committed, that output leaves the list): set while rendering,
  // as React advises for state derived from a change.
  if (held && (selected?.id ?? null) !== selectedId) setSelectedId(selected?.id ?? null);

  // The URL keeps the selection (replace: moving is not a step back).
  useEffect(() => {
    if (selected && selected.id !== search.selected) void navigate({ search: (prev) => ({ ...prev, selected: selected.id as `art_${string}` }), replace: true });
  }, [selected, search.selected, navigate]);

  // Undo puts the output back: select it again, and focus it.
  useEffect(
    () =>
      useDecisionHolds.subscribe((now, before) => {
        if (now.outcome !== before.outcome && now.outcome?.undoneId) {
          focusNext.current = true;
          setSelectedId(now.outcome.undoneId);
        }
      }),
    [],
  );

  useEffect(() => {
    if (!selected) return;
    const row = rowRefs.current.get(selected.id);
    row?.scrollIntoView?.({ block: 'nearest' });
    if (focusNext.current) {
      focusNext.current = false;
      row?.querySelector<HTMLElement>('.output-item__title')?.focus({ preventScroll: true });
    }
  }, [selected, rows.length]);

  const editing = editingId !== null && editingId === selected?.id;
  const select = (id: string) => {
    if (id === selected?.id) return;
    // The edit box belongs to one output: the selection stays with it until it is saved or closed.
    if (editing) {
      announce('Finish the edit first: save it, or press Esc in the edit box to close it.');
      return;
    }
    setSelectedId(id);
  };

  const move = (by: number) => {
    if (rows.length === 0 || editing) return;
    const next = rows[Math.max(0, Math.min(rows.length - 1, index + by))];
    focusNext.current = true;
    setSelectedId(next.id);
    // The same row again (the first or last): the effect does not run, so focus it here.
    if (next.id === selected?.id) rowRefs.current.get(next.id)?.querySelector<HTMLElement>('.output-item__title')?.focus({ preventScroll: true });
  };

  const decide = (o: Pick<Artifact, 'id' | 'title' | 'status' | 'supersededAt'>, decision: Decision) => {
    if (!canDecide(o) || editing) return;
    focusNext.current = true;
    holdDecision({ kind: 'one', id: o.id, title: o.title, decision });
  };

  const edit = (o: Pick<Artifact, 'id' | 'status' | 'supersededAt'> | null) => {
    if (o && canDecide(o)) setEditingId(o.id);
  };

  const closeEditor = () => {
    setEditingId(null);
    focusNext.current = true;
    if (selected) rowRefs.current.get(selected.id)?.querySelector<HTMLElement>('.output-item__title')?.focus({ preventScroll: true });
  };

  const saved = (created: Artifact) => {
    setEditingId(null);
    focusNext.current = true;
    setSelectedId(created.id);
    announce(`Saved v${created.version} of “${created.title}”, written by you. It waits for your decision.`);
  };

  const open = () => {
    if (selected) void navigate({ to: '/outputs/$artifactId', params: { artifactId: selected.id } });
  };

  const keys = { enabled: !editing };
  useHotkeys('j', () => move(1), keys, [rows, index, editing]);
  useHotkeys('k', () => move(-1), keys, [rows, index, editing]);
  useHotkeys('a', () => selected && decide(selected, 'approve'), keys, [selected, editing]);
  useHotkeys('e', () => selected && decide(selected, 'archive'), keys, [selected, editing]);
  useHotkeys(
    'i',
    (e) => {
      // The key opens the box; it must not also type an "i" into it.
      e.preventDefault();
      edit(selected);
    },
    keys,
    [selected],
  );
  useHotkeys('r', () => selected && reopen.run(selected), keys, [selected, reopen]);
  useHotkeys('o', open, keys, [selected]);
  // Enter on a focused button or link already means that control; only elsewhere does it open the row.
  useHotkeys('enter', (e) => (e.target instanceof Element && e.target.closest('button, a, [role="tabpanel"]') ? undefined : open()), keys, [selected]);
  useHotkeys('shift+slash', () => setHelp((h) => !h), keys);

  const hold = (action: 'approve_all' | 'archive_all') => {
    focusNext.current = true;
    holdDecision({ kind: 'bulk', action, count: shownWaiting });
  };

  return (
    <div className="stack">
      <div className="queue-bar">
        <p className="muted small">
          Keys: <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>a</kbd> approve, <kbd>e</kbd> archive, <kbd>i</kbd> edit, <kbd>u</kbd> undo, <kbd>o</kbd> open, <kbd>?</kbd> help.
        </p>
        {queue ? (
          <span className="queue-bar__bulk">
            <ConfirmButton label="Approve all" question={`Approve all ${shownWaiting} ready ${plural}?`} confirmLabel="Approve all" disabled={shownWaiting === 0} onConfirm={() => hold('approve_all')} />
            <ConfirmButton label="Archive all" question={`Archive all ${shownWaiting} ready ${plural}?`} confirmLabel="Archive all" disabled={shownWaiting === 0} onConfirm={() => hold('archive_all')} />
          </span>
        ) : null}
      </div>
      <HoldNotice />
      {help ? <KeyHelp keys={QUEUE_KEYS} /> : null}
      {rows.length === 0 ? (
        <div className="empty card card--padded">
          {!queue ? (
            <p>No {status} outputs.</p>
          ) : filtered ? (
            <p>No ready output matches these filters.</p>
          ) : (
            <>
              <p>Nothing waits for review.</p>
              <p className="muted small">Add signals, then press Run now in the header: the loop turns them into tasks and drafts.</p>
            </>
          )}
        </div>
      ) : (
        <div className="review-split">
          <div className="review-split__list stack">
            <QueueRows rows={rows} selectedId={selected?.id ?? null} onSelect={select} rowRefs={rowRefs} />
            <LoadMore list={list} end={rows.length > 10 ? 'That is all of them.' : null} />
          </div>
          {selected ? (
            <OutputPreview
              id={selected.id}
              editing={editing}
              onCloseEditor={closeEditor}
              onSaved={saved}
              onDecide={decide}
              onEdit={edit}
              onReopen={(o) => reopen.run(o)}
              reopening={reopen.reopening}
            />
          ) : null}
        </div>
      )}
    </div>
  );
}
