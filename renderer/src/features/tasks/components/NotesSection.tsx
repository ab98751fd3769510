import { useState } from 'react';
import { LIMITS } from '../../../api/rules.gen';
import { useCursorList } from '../../../api/cursor-list';
import { Field } from '../../../components/Field';
import { FormError, fieldError } from '../../../components/FormError';
import { LoadMore } from '../../../components/LoadMore';
import { formatDateTime, formatRelative } from '../../../lib/format';
import { notesList, usePostNote } from '../api';

const MAX_NOTE = LIMITS.TaskNoteBody.text.maxLength;

/** Operator notes, newest first, and the form for a new one (fed to the next AI cycle as direction). */
export function NotesSection({ taskId }: { taskId: string }) {
  const list = useCursorList(notesList(taskId));
  const post = usePostNote(taskId);
  const [text, setText] = useState('');
  return (
    <section className="card card--padded" aria-labelledby="task-notes-title">
      <h2 className="card__title" id="task-notes-title">
        Notes
      </h2>
      <p className="muted small">The next AI cycle takes notes as authoritative direction. A note on a task that needs input puts it back in the queue.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          post.mutate(text.trim(), { onSuccess: () => setText('') });
        }}
      >
        <Field label="New note" hint={`${text.length}/${MAX_NOTE} characters`} error={fieldError(post.error, 'text')}>
          {(control) => <textarea {...control} className="input textarea" rows={2} value={text} maxLength={MAX_NOTE} onChange={(e) => setText(e.target.value)} />}
        </Field>
        <div className="actions">
          <button type="submit" className="button button--small" disabled={post.isPending || !text.trim()}>
            {post.isPending ? 'Posting…' : 'Post note'}
          </button>
        </div>
        <FormError error={post.error} fields={['text']} />
      </form>
      {list.error && !list.isFetchNextPageError ? <FormError error={list.error} /> : null}
      <ul className="task-notes" aria-label="Notes">
        {list.items.map((n) => (
          <li key={n.id} className="task-note">
            <p className="task-note__text">{n.text}</p>
            <p className="muted small">
              {n.authorName ?? 'removed member'} · <span title={formatDateTime(n.createdAt)}>{formatRelative(n.createdAt)}</span>
            </p>
          </li>
        ))}
      </ul>
      {list.data && list.items.length === 0 ? <p className="muted small">No notes yet.</p> : null}
      <LoadMore list={list} />
    </section>
  );
}
