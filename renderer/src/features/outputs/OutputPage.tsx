import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { PageHeader, QueryState } from '../../components/Page';
import { ReactionBar } from '../../components/ReactionBar';
import { formatDateTime } from '../../lib/format';
import { outputQuery, useReactToOutput, type Artifact, type Decision } from './api';
import { announce, holdDecision } from './decision-holds';
import { EngineNote } from './EngineNote';
import { HoldNotice, useHoldHost } from './HoldNotice';
import { KeyHelp, PAGE_KEYS } from './KeyHelp';
import { Markdown } from './Markdown';
import { OutputBadges } from './OutputBadges';
import { ChangesSection } from './OutputChanges';
import { OutputEditor } from './OutputEditor';
import { canDecide, OutputActions } from './OutputPreview';
import { authorLabel, SourcesSection, VersionsSection } from './OutputSections';
import { useReopen } from './use-reopen';
import './outputs.css';
import './review.css';

function DetailsSection({ output }: { output: Artifact }) {
  return (
    <section className="card card--padded" aria-labelledby="output-details-title">
      <h2 className="card__title" id="output-details-title">
        Details
      </h2>
      <dl className="output-details">
        <dt>Task</dt>
        <dd>
          {output.taskId ? (
            <Link to="/tasks/$taskId" params={{ taskId: output.taskId }}>
              {output.taskTitle ?? output.taskId}
            </Link>
          ) : (
            <span className="muted">deleted</span>
          )}
        </dd>
        <dt>Made</dt>
        <dd>
          {formatDateTime(output.createdAt)}
          {output.runId ? (
            <>
              {' '}
              by a <Link to="/runs">loop cycle</Link>
            </>
          ) : null}
        </dd>
        <dt>Ready since</dt>
        <dd>{formatDateTime(output.readyAt)}</dd>
        {output.decidedAt ? (
          <>
            <dt>Decided</dt>
            <dd>{formatDateTime(output.decidedAt)}</dd>
          </>
        ) : null}
        {output.tags.length ? (
          <>
            <dt>Tags</dt>
            <dd>
              {output.tags.map((t) => (
                <span key={t} className="output-tag">
                  {t}
                </span>
              ))}
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

/**
 * One output's page (/outputs/<id>): its content, status, reactions, changes since the previous
 * version, sources and version chain, with the queue's actions and keys: a approves and e archives
 * (held with an Undo, then back to the queue at the next output), i edits in place, r reopens a
 * decided one, ? lists the keys.
 */
export function OutputPage() {
  useHoldHost();
  const { artifactId } = useParams({ strict: false }) as { artifactId: string };
  const output = useQuery(outputQuery(artifactId));
  const react = useReactToOutput(artifactId);
  const navigate = useNavigate();
  const reopen = useReopen();
  const [editing, setEditing] = useState(false);
  const [help, setHelp] = useState(false);
  const o = output.data;
  // Back to the list this output is in, with it selected (the queue moves on if it was just decided).
  const back = { to: '/outputs', search: { status: o && o.status !== 'ready' ? o.status : undefined, selected: artifactId as `art_${string}` } } as const;

  const decide = (target: Artifact, decision: Decision) => {
    if (!canDecide(target) || editing) return;
    holdDecision({ kind: 'one', id: target.id, title: target.title, decision });
    void navigate({ to: '/outputs', search: { selected: target.id as `art_${string}` } });
  };
  const edit = (target: Artifact) => {
    if (canDecide(target)) setEditing(true);
  };
  const reopenThis = (target: Artifact) => reopen.run(target, (created) => void navigate({ to: '/outputs/$artifactId', params: { artifactId: created.id } }));
  const saved = (created: Artifact) => {
    setEditing(false);
    announce(`Saved v${created.version} of “${created.title}”, written by you. It waits for your decision.`);
    void navigate({ to: '/outputs/$artifactId', params: { artifactId: created.id }, replace: true });
  };

  const keys = { enabled: !editing && o !== undefined };
  useHotkeys('a', () => o && decide(o, 'approve'), keys, [o, editing]);
  useHotkeys('e', () => o && decide(o, 'archive'), keys, [o, editing]);
  useHotkeys(
    'i',
    (e) => {
      // The key opens the box; it must not also type an "i" into it.
      e.preventDefault();
      if (o) edit(o);
    },
    keys,
    [o],
  );
  useHotkeys('r', () => o && reopenThis(o), keys, [o, reopen]);
  useHotkeys('shift+slash', () => setHelp((h) => !h), keys);

  return (
    <div className="page">
      <p className="output-back small">
        <Link {...back}>← Outputs</Link>
      </p>
      <HoldNotice />
      {help ? <KeyHelp keys={PAGE_KEYS} /> : null}
      {!o ? (
        <QueryState isPending={output.isPending} error={output.error} onRetry={() => void output.refetch()} />
      ) : (
        <>
          <PageHeader
            title={o.title}
            description={
              <>
                <OutputBadges output={o} />
                <span className="muted small">
                  v{o.version} · {authorLabel(o)}
                </span>
              </>
            }
            actions={
              <>
                {editing ? null : <OutputActions output={o} onDecide={decide} onEdit={edit} onReopen={reopenThis} reopening={reopen.reopening} />}
                {o.taskId ? (
                  <Link className="button button--secondary button--small" to="/tasks/$taskId" params={{ taskId: o.taskId }}>
                    Open task
                  </Link>
                ) : null}
              </>
            }
          />
          <div className="detail-columns">
            <div className="stack">
              {o.runId ? <EngineNote runId={o.runId} /> : null}
              {editing && canDecide(o) ? (
                <OutputEditor key={o.id} output={o} onSaved={saved} onClose={() => setEditing(false)} />
              ) : (
                <article className="card card--padded output-content" aria-label="Content">
                  <Markdown source={o.content} title={o.title} />
                </article>
              )}
              <ReactionBar reactions={o.reactions} onReact={(emoji) => react.mutate(emoji)} pending={react.isPending} error={react.error} />
              {o.version > 1 ? <ChangesSection id={o.id} content={o.content} /> : null}
            </div>
            <div className="stack">
              <DetailsSection output={o} />
              <SourcesSection id={o.id} />
              <VersionsSection id={o.id} />
            </div>
          </div>
        </>
      )}
    </div>
  );
}
