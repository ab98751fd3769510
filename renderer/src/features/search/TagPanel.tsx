import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { plural } from '../../lib/format';
import { tagSearchQuery, useRenameTag } from './api';

const KIND_LABEL = { task: 'Task', artifact: 'Output', memory: 'Memory' } as const;

/**
 * What `tag:<name>` in the search box shows: what carries the tag (GET /workspace/tag-search) and a
 * form that renames or merges it across the workspace (POST /workspace/tags/rename).
 */
export function TagPanel({ tag, onOpen }: { tag: string; onOpen: (route: string) => void }) {
  const found = useQuery({ ...tagSearchQuery(tag), enabled: tag !== '' });
  const rename = useRenameTag();
  const [to, setTo] = useState('');
  const [notice, setNotice] = useState<string | null>(null);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setNotice(null);
    rename.mutate(
      { from: tag, to: to.trim() },
      {
        onSuccess: (r) => {
          const rows = r.tasks.renamed + r.tasks.merged + r.artifacts.renamed + r.artifacts.merged + r.memory.renamed + r.memory.merged;
          setNotice(r.changed ? `Renamed ${tag} to ${r.to} on ${plural(rows, 'item')}${r.focusTags ? ' and in the focus tags' : ''}.` : `Nothing carries ${tag}.`);
        },
      },
    );
  };

  if (tag === '') return <p className="search-box__empty muted small">Type a tag after tag:</p>;
  return (
    <div className="search-box__tag">
      {found.error && <p className="form-error small" role="alert">{found.error.message}</p>}
      {found.data && (
        <>
          <p className="muted small">
            {plural(found.data.counts.tasks, 'task')}, {plural(found.data.counts.artifacts, 'output')}, {plural(found.data.counts.memory, 'memory entry', 'memory entries')} tagged {tag}
          </p>
          <ul className="search-box__list">
            {found.data.items.map((item) => (
              <li key={`${item.kind}:${item.id}`}>
                <button type="button" className="search-box__hit" onClick={() => onOpen(item.route)}>
                  <span className="search-box__kind">{KIND_LABEL[item.kind]}</span> {item.title}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      <form className="search-box__rename" onSubmit={submit}>
        <label>
          Rename {tag} to{' '}
          <input className="input" value={to} onChange={(e) => setTo(e.target.value)} placeholder="new-tag" aria-label={`New name for ${tag}`} />
        </label>
        <button type="submit" className="button" disabled={rename.isPending || to.trim() === ''}>
          Rename
        </button>
      </form>
      {rename.error && <p className="form-error small" role="alert">{rename.error.fieldError('to') ?? rename.error.fieldError('from') ?? rename.error.message}</p>}
      {notice && <p className="small" role="status">{notice}</p>}
    </div>
  );
}
