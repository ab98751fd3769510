import { useState } from 'react';
import { useAuth } from '../../../lib/auth';
import { FormError } from '../../../components/FormError';
import { useShare, type SharePage, type TaskDetail } from '../api';
import { shareUrl } from '../format';

const PAGES: { page: SharePage; label: string; prefix: string; shared: (t: TaskDetail) => string | null }[] = [
  { page: 'work-log', label: 'Work log', prefix: '/share/work-log/', shared: (t) => t.share.publicWorkLogToken },
  { page: 'timeline', label: 'Timeline', prefix: '/share/timeline/', shared: (t) => t.share.publicTimelineToken },
];

function ShareRow({ task, page, label, prefix, shared }: { task: TaskDetail } & (typeof PAGES)[number]) {
  const share = useShare(task.id);
  const baseUrl = useAuth((s) => s.baseUrl);
  const [copied, setCopied] = useState(false);
  const token = shared(task);
  const url = token ? shareUrl(baseUrl, `${prefix}${token}`) : null;
  return (
    <div className="task-share" role="group" aria-label={`${label} link`}>
      <label className="checkbox">
        <input type="checkbox" checked={token !== null} disabled={share.isPending} onChange={(e) => share.mutate({ page, enable: e.target.checked })} />
        Share the {label.toLowerCase()}
      </label>
      {url ? (
        <div className="inline-form">
          <input className="input input--wide" readOnly aria-label={`${label} URL`} value={url} onFocus={(e) => e.target.select()} />
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={() => {
              void navigator.clipboard?.writeText(url).then(() => setCopied(true));
            }}
          >
            {copied ? 'Copied' : 'Copy'}
          </button>
        </div>
      ) : null}
      <FormError error={share.error} />
    </div>
  );
}

/** Public read-only links to the task's work log and timeline; turning one off revokes its link at once. */
export function ShareSection({ task }: { task: TaskDetail }) {
  return (
    <section className="card card--padded" aria-labelledby="task-share-title">
      <h2 className="card__title" id="task-share-title">
        Share links
      </h2>
      <p className="muted small">Anyone with a link can read that page, without signing in.</p>
      {PAGES.map((p) => (
        <ShareRow key={p.page} task={task} {...p} />
      ))}
    </section>
  );
}
