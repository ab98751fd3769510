import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId } from 'react';
import { Badge } from '../../components/Badge';
import { QueryState } from '../../components/Page';
import { formatDateTime, formatRelative, plural } from '../../lib/format';
import { outputSourcesQuery, outputVersionsQuery, type ArtifactVersions } from './api';
import { outputStatusLabel, outputStatusTone } from './format';

/**
 * The sections an output shows beside its text, on its full page (headings h2, under the page's h1)
 * and in the Outputs split view's preview (h3, under the preview's h2 title).
 */
type Level = 2 | 3;

function Heading({ level, id, children }: { level: Level; id: string; children: string }) {
  const H = level === 2 ? 'h2' : 'h3';
  return (
    <H className="card__title" id={id}>
      {children}
    </H>
  );
}

export function SourcesSection({ id, level = 2 }: { id: string; level?: Level }) {
  const sources = useQuery(outputSourcesQuery(id));
  const headingId = useId();
  const s = sources.data;
  const Sub = level === 2 ? 'h3' : 'h4';
  return (
    <section className="card card--padded" aria-labelledby={headingId}>
      <Heading level={level} id={headingId}>
        Sources
      </Heading>
      {!s ? (
        <QueryState isPending={sources.isPending} error={sources.error} onRetry={() => void sources.refetch()} />
      ) : (
        <>
          <Sub className="output-side__subtitle">Signals ({s.signals.length})</Sub>
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
          <Sub className="output-side__subtitle">Memory ({s.memory.length})</Sub>
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

type Version = ArtifactVersions['versions'][number];

/** Who wrote a version: the engine (a loop cycle) or the member by name ("you" is not known here). */
export function authorLabel(v: Pick<Version, 'authorKind' | 'authorName'>): string {
  if (v.authorKind === 'engine') return 'drafted by the engine';
  return `written by ${v.authorName ?? 'a former member'}`;
}

export function VersionsSection({ id, level = 2 }: { id: string; level?: Level }) {
  const versions = useQuery(outputVersionsQuery(id));
  const headingId = useId();
  const v = versions.data;
  return (
    <section className="card card--padded" aria-labelledby={headingId}>
      <Heading level={level} id={headingId}>
        Versions
      </Heading>
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
                  <Badge tone={ver.supersededAt ? 'neutral' : outputStatusTone(ver.status)}>{ver.supersededAt ? 'Replaced' : outputStatusLabel(ver.status)}</Badge>
                  <span className="muted small">{authorLabel(ver)}</span>
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
