import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { Badge } from '../../components/Badge';
import { PageHeader, QueryState } from '../../components/Page';
import { ReactionBar } from '../../components/ReactionBar';
import { formatDateTime, formatRelative, plural } from '../../lib/format';
import { outputQuery, outputSourcesQuery, outputVersionsQuery, useReactToOutput, type Artifact } from './api';
import { outputStatusLabel, outputStatusTone } from './format';
import { EngineNote } from './EngineNote';
import { Markdown } from './Markdown';
import { OutputBadges } from './OutputBadges';
import './outputs.css';

function SourcesSection({ id }: { id: string }) {
  const sources = useQuery(outputSourcesQuery(id));
  const s = sources.data;
  return (
    <section className="card card--padded" aria-labelledby="output-sources-title">
      <h2 className="card__title" id="output-sources-title">
        Sources
      </h2>
      {!s ? (
        <QueryState isPending={sources.isPending} error={sources.error} onRetry={() => void sources.refetch()} />
      ) : (
        <>
          <h3 className="output-side__subtitle">Signals ({s.signals.length})</h3>
          {s.signals.length === 0 ? <p className="muted small">The cycle read no signals for this output.</p> : null}
          <ul className="output-sources" aria-label="Source signals">
            {s.signals.map((sig) => (
              <li key={sig.id}>
                {sig.sourceUrl ? (
                  <a href={sig.sourceUrl} target="_blank" rel="noopener noreferrer">
                    {sig.title}
                  </a>
                ) : (
                  <span>{sig.title}</span>
                )}
                <span className="output-sources__meta muted small">
                  {sig.kind}
                  {sig.sourceId ? (
                    <>
                      {' · '}
                      <Link to="/sources/$sourceId" params={{ sourceId: sig.sourceId }}>
                        {sig.sourceLabel ?? 'source'}
                      </Link>
                    </>
                  ) : null}
                  {' · '}
                  {formatRelative(sig.createdAt)}
                </span>
              </li>
            ))}
          </ul>
          {s.missingSignalIds.length ? <p className="muted small">{plural(s.missingSignalIds.length, 'signal')} deleted since.</p> : null}
          <h3 className="output-side__subtitle">Memory ({s.memory.length})</h3>
          {s.memory.length === 0 ? <p className="muted small">The cycle pulled no memory for this output.</p> : null}
          <ul className="output-sources" aria-label="Source memory">
            {s.memory.map((m) => (
              <li key={m.id}>
                <Link to="/memory">{m.title}</Link>
                <span className="output-sources__meta muted small">
                  {m.kind}
                  {m.archivedAt ? ' · archived' : ''}
                </span>
                <p className="output-sources__excerpt muted small">{m.content}</p>
              </li>
            ))}
          </ul>
          {s.missingMemoryIds.length ? <p className="muted small">{plural(s.missingMemoryIds.length, 'memory entry', 'memory entries')} deleted since.</p> : null}
        </>
      )}
    </section>
  );
}

function VersionsSection({ id }: { id: string }) {
  const versions = useQuery(outputVersionsQuery(id));
  const v = versions.data;
  return (
    <section className="card card--padded" aria-labelledby="output-versions-title">
      <h2 className="card__title" id="output-versions-title">
        Versions
      </h2>
      {!v ? (
        <QueryState isPending={versions.isPending} error={versions.error} onRetry={() => void versions.refetch()} />
      ) : (
        <>
          <ol className="output-versions" aria-label="Versions">
            {v.versions.map((ver) => (
              <li key={ver.id} className={ver.current ? 'is-current' : undefined} aria-current={ver.current ? 'page' : undefined}>
                {ver.current ? (
                  <span className="output-versions__label">v{ver.version} · this version</span>
                ) : (
                  <Link to="/outputs/$artifactId" params={{ artifactId: ver.id }} className="output-versions__label">
                    v{ver.version} · {ver.title}
                  </Link>
                )}
                <span className="output-versions__meta">
                  <Badge tone={outputStatusTone(ver.status)}>{outputStatusLabel(ver.status)}</Badge>
                  <span className="muted small" title={formatDateTime(ver.createdAt)}>
                    {formatRelative(ver.createdAt)}
                  </span>
                </span>
              </li>
            ))}
          </ol>
          {v.truncated ? <p className="muted small">Older or newer versions lie beyond 12 steps; open the last one listed to see further.</p> : null}
        </>
      )}
    </section>
  );
}

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

/** One output's page (/outputs/<id>): its content, status, reactions, sources and version chain. */
export function OutputPage() {
  const { artifactId } = useParams({ strict: false }) as { artifactId: string };
  const output = useQuery(outputQuery(artifactId));
  const react = useReactToOutput(artifactId);
  const o = output.data;
  return (
    <div className="page">
      <p className="output-back small">
        <Link to="/outputs">← Outputs</Link>
      </p>
      {!o ? (
        <QueryState isPending={output.isPending} error={output.error} onRetry={() => void output.refetch()} />
      ) : (
        <>
          <PageHeader
            title={o.title}
            description={<OutputBadges output={o} />}
            actions={
              o.taskId ? (
                <Link className="button button--secondary" to="/tasks/$taskId" params={{ taskId: o.taskId }}>
                  Open task
                </Link>
              ) : null
            }
          />
          <div className="detail-columns">
            <div className="stack">
              {o.runId ? <EngineNote runId={o.runId} /> : null}
              <article className="card card--padded output-content" aria-label="Content">
                <Markdown source={o.content} title={o.title} />
              </article>
              <ReactionBar reactions={o.reactions} onReact={(emoji) => react.mutate(emoji)} pending={react.isPending} error={react.error} />
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
