import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { QueryState } from '../../components/Page';
import { outputQuery, type Artifact, type Decision } from './api';
import { ChangesSection } from './OutputChanges';
import { OutputBadges } from './OutputBadges';
import { OutputEditor } from './OutputEditor';
import { authorLabel, SourcesSection, VersionsSection } from './OutputSections';
import { Markdown } from './Markdown';

/** What can be done to an output now: decide or edit a waiting one, reopen a decided one. */
export const canDecide = (o: Pick<Artifact, 'status' | 'supersededAt'>) => o.status === 'ready' && o.supersededAt === null;
export const canReopen = (o: Pick<Artifact, 'status'>) => o.status !== 'ready';

export interface OutputHandlers {
  onDecide: (o: Artifact, decision: Decision) => void;
  onEdit: (o: Artifact) => void;
  onReopen: (o: Artifact) => void;
  reopening?: boolean;
}

/** The output's buttons, with their keys in their titles: Approve (a), Archive (e), Edit (i); Reopen (r) once decided. */
export function OutputActions({ output, onDecide, onEdit, onReopen, reopening = false }: { output: Artifact } & OutputHandlers) {
  if (canReopen(output)) {
    return (
      <span className="output-actions">
        <button type="button" className="button button--secondary button--small" disabled={reopening} onClick={() => onReopen(output)} aria-keyshortcuts="r">
          Reopen
        </button>
      </span>
    );
  }
  if (!canDecide(output)) {
    return (
      <p className="muted small">
        A newer version replaced this one{' '}
        {output.supersededById ? (
          <Link to="/outputs/$artifactId" params={{ artifactId: output.supersededById }}>
            (open it)
          </Link>
        ) : null}
        .
      </p>
    );
  }
  return (
    <span className="output-actions">
      <button type="button" className="button button--small" onClick={() => onDecide(output, 'approve')} aria-keyshortcuts="a">
        Approve
      </button>
      <button type="button" className="button button--ghost button--small" onClick={() => onDecide(output, 'archive')} aria-keyshortcuts="e">
        Archive
      </button>
      <button type="button" className="button button--ghost button--small" onClick={() => onEdit(output)} aria-keyshortcuts="i">
        Edit
      </button>
    </span>
  );
}

/**
 * The selected output beside the queue: its actions, its text (or the edit box), its changes since the
 * previous version, its sources and its version chain. Headings start at h2 (the title), under the
 * Outputs page's h1.
 */
export function OutputPreview({ id, editing, onCloseEditor, onSaved, ...handlers }: { id: string; editing: boolean; onCloseEditor: () => void; onSaved: (created: Artifact) => void } & OutputHandlers) {
  const output = useQuery(outputQuery(id));
  const o = output.data;
  return (
    <section className="review-preview stack" aria-labelledby="review-preview-title">
      {!o ? (
        <>
          <h2 className="sr-only" id="review-preview-title">
            Selected output
          </h2>
          <QueryState isPending={output.isPending} error={output.error} onRetry={() => void output.refetch()} />
        </>
      ) : (
        <>
          <div className="card card--padded review-preview__head">
            <h2 className="review-preview__title" id="review-preview-title">
              <Link to="/outputs/$artifactId" params={{ artifactId: o.id }}>
                {o.title}
              </Link>
            </h2>
            <OutputBadges output={o} />
            <p className="muted small">
              v{o.version} · {authorLabel(o)}
            </p>
            {editing ? null : <OutputActions output={o} {...handlers} />}
          </div>
          {editing && canDecide(o) ? (
            <OutputEditor key={o.id} output={o} onSaved={onSaved} onClose={onCloseEditor} headingLevel={3} />
          ) : (
            <article className="card card--padded output-content" aria-label="Content">
              <Markdown source={o.content} title={o.title} topLevel={3} />
            </article>
          )}
          {o.version > 1 ? <ChangesSection id={o.id} content={o.content} level={3} /> : null}
          <SourcesSection id={o.id} level={3} />
          <VersionsSection id={o.id} level={3} />
        </>
      )}
    </section>
  );
}
