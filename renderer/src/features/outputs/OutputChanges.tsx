import { useQuery } from '@tanstack/react-query';
import { diffWords } from 'diff';
import { useId } from 'react';
import { QueryState } from '../../components/Page';
import { outputQuery, outputVersionsQuery } from './api';
import { authorLabel } from './OutputSections';

/**
 * An output's changes since its previous version, as a word diff of the two Markdown texts (jsdiff's
 * diffWords: prose changes read as words added and removed, not whole lines). Long unchanged runs are
 * cut to their ends, so the changes stay in view.
 */

export type Part = { kind: 'same' | 'added' | 'removed'; text: string } | { kind: 'gap'; chars: number };

/** Context kept on each side of a change inside a long unchanged run. */
const KEEP = 120;
// Past this many edits the two texts have little in common: the diff says so instead of listing them.
const MAX_EDITS = 4_000;

/** The word diff from `before` to `after`, long unchanged runs shortened; null when they differ too much to list. */
export function changesSince(before: string, after: string): { parts: Part[]; added: number; removed: number } | null {
  const changes = diffWords(before, after, { maxEditLength: MAX_EDITS });
  if (!changes) return null;
  const parts: Part[] = [];
  let added = 0;
  let removed = 0;
  changes.forEach((c, i) => {
    if (c.added || c.removed) {
      const words = c.value.split(/\s+/).filter(Boolean).length;
      if (c.added) added += words;
      else removed += words;
      parts.push({ kind: c.added ? 'added' : 'removed', text: c.value });
      return;
    }
    const first = i === 0;
    const last = i === changes.length - 1;
    const keepHead = first ? 0 : KEEP;
    const keepTail = last ? 0 : KEEP;
    if (c.value.length <= keepHead + keepTail + 20) {
      parts.push({ kind: 'same', text: c.value });
      return;
    }
    if (keepHead) parts.push({ kind: 'same', text: c.value.slice(0, keepHead) });
    parts.push({ kind: 'gap', chars: c.value.length - keepHead - keepTail });
    if (keepTail) parts.push({ kind: 'same', text: c.value.slice(-keepTail) });
  });
  return { parts, added, removed };
}

function DiffText({ parts }: { parts: Part[] }) {
  return (
    <div className="output-diff" aria-label="Changes, inline">
      {parts.map((p, i) =>
        p.kind === 'gap' ? (
          <span key={i} className="output-diff__gap">
            {' '}
            … {p.chars} unchanged characters …{' '}
          </span>
        ) : p.kind === 'added' ? (
          <ins key={i}>
            <span className="sr-only">[added: </span>
            {p.text}
            <span className="sr-only">]</span>
          </ins>
        ) : p.kind === 'removed' ? (
          <del key={i}>
            <span className="sr-only">[removed: </span>
            {p.text}
            <span className="sr-only">]</span>
          </del>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </div>
  );
}

/** The previous version (the next older one in the chain) compared with this one. */
export function ChangesSection({ id, content, level = 2 }: { id: string; content: string; level?: 2 | 3 }) {
  const versions = useQuery(outputVersionsQuery(id));
  const chain = versions.data?.versions ?? [];
  const at = chain.findIndex((v) => v.current);
  const previous = at >= 0 ? (chain[at + 1] ?? null) : null;
  const before = useQuery({ ...outputQuery(previous?.id ?? ''), enabled: previous !== null });
  const headingId = useId();
  const H = level === 2 ? 'h2' : 'h3';
  const diff = before.data ? changesSince(before.data.content, content) : undefined;
  return (
    <section className="card card--padded" aria-labelledby={headingId}>
      <H className="card__title" id={headingId}>
        Changes since the previous version
      </H>
      {!versions.data ? (
        <QueryState isPending={versions.isPending} error={versions.error} onRetry={() => void versions.refetch()} />
      ) : previous === null ? (
        <p className="muted small">This is the first version: nothing to compare with.</p>
      ) : !before.data ? (
        <QueryState isPending={before.isPending} error={before.error} onRetry={() => void before.refetch()} />
      ) : (
        <>
          <p className="muted small">
            Against v{previous.version} ({authorLabel(previous)}):{' '}
            {diff === null ? 'the texts differ too much to list word by word.' : diff && diff.added + diff.removed > 0 ? `${diff.added} words added, ${diff.removed} removed.` : 'the same text.'}
          </p>
          {diff && diff.added + diff.removed > 0 ? <DiffText parts={diff.parts} /> : null}
        </>
      )}
    </section>
  );
}
