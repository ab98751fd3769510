import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { LIMITS, QUERY } from '../../../api/rules.gen';
import { ReactionBar } from '../../../components/ReactionBar';
import { Field } from '../../../components/Field';
import { FormError, fieldError } from '../../../components/FormError';
import { formatDateTime, formatRelative, plural } from '../../../lib/format';
import { useDebounced } from '../../../lib/use-debounced';
import { commentsQuery, usePostComment, useReactToComment, type TaskComment } from '../api';

const MAX_COMMENT = LIMITS.NewCommentBody.text.maxLength;
const MAX_Q = QUERY.listTaskComments.q.maxLength;

function CommentForm({ taskId, parentCommentId, label, onDone }: { taskId: string; parentCommentId?: string; label: string; onDone?: () => void }) {
  const post = usePostComment(taskId);
  const [text, setText] = useState('');
  return (
    <form
      className="comment-form"
      aria-label={`${label} form`}
      onSubmit={(e) => {
        e.preventDefault();
        post.mutate(
          { text: text.trim(), ...(parentCommentId ? { parentCommentId } : {}) },
          {
            onSuccess: () => {
              setText('');
              onDone?.();
            },
          },
        );
      }}
    >
      <Field label={label} error={fieldError(post.error, 'text')} hint="Name a teammate as @name to mention them.">
        {(control) => <textarea {...control} className="input textarea" rows={2} value={text} maxLength={MAX_COMMENT} onChange={(e) => setText(e.target.value)} />}
      </Field>
      <div className="actions">
        <button type="submit" className="button button--small" disabled={post.isPending || !text.trim()}>
          {parentCommentId ? 'Post reply' : 'Post comment'}
        </button>
      </div>
      <FormError error={post.error} fields={['text']} />
    </form>
  );
}

function Reactions({ taskId, comment }: { taskId: string; comment: TaskComment }) {
  const react = useReactToComment(taskId);
  return <ReactionBar reactions={comment.reactions} onReact={(emoji) => react.mutate({ commentId: comment.id, emoji })} pending={react.isPending} error={react.error} />;
}

interface ItemProps {
  taskId: string;
  comment: TaskComment;
  isMatch: (id: string) => boolean;
  /** The comment a search hit opened (?comment=<id>): marked and scrolled to. */
  focusId?: string;
  replies?: TaskComment[];
}

function CommentItem({ taskId, comment, isMatch, focusId, replies }: ItemProps) {
  const [replying, setReplying] = useState(false);
  const isTop = comment.parentCommentId === null;
  const focused = comment.id === focusId;
  const item = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (focused) item.current?.scrollIntoView?.({ block: 'center' });
  }, [focused]);
  return (
    <li ref={item} className={`comment${isMatch(comment.id) ? ' is-match' : ''}${focused ? ' is-focused' : ''}`} aria-label={`Comment by ${comment.authorName}`} aria-current={focused ? 'true' : undefined}>
      <span className="comment__avatar" aria-hidden="true" style={{ background: `hsl(${comment.authorHue} 55% 45%)` }}>
        {comment.authorInitials}
      </span>
      <div className="comment__body">
        <p className="comment__meta small">
          <strong>{comment.authorName}</strong> <span className="muted" title={formatDateTime(comment.createdAt)}>{formatRelative(comment.createdAt)}</span>
        </p>
        <p className="comment__text">{comment.text}</p>
        <div className="comment__actions">
          <Reactions taskId={taskId} comment={comment} />
          {isTop ? (
            <button type="button" className="link-button small" aria-expanded={replying} onClick={() => setReplying((r) => !r)}>
              Reply
            </button>
          ) : null}
        </div>
        {replies && replies.length ? (
          <ul className="comment-replies" aria-label={`Replies to ${comment.authorName}`}>
            {replies.map((r) => (
              <CommentItem key={r.id} taskId={taskId} comment={r} isMatch={isMatch} focusId={focusId} />
            ))}
          </ul>
        ) : null}
        {replying ? <CommentForm taskId={taskId} parentCommentId={comment.id} label="Reply" onDone={() => setReplying(false)} /> : null}
      </div>
    </li>
  );
}

/** Threaded comments with reactions and search (body or author name). */
export function CommentsSection({ taskId, focusCommentId }: { taskId: string; focusCommentId?: string }) {
  const [q, setQ] = useState('');
  const query = useDebounced(q.trim());
  const comments = useQuery(commentsQuery(taskId, query));
  const data = comments.data;
  const matched = new Set(data?.matchedIds ?? []);
  const top = (data?.comments ?? []).filter((c) => c.parentCommentId === null);
  const repliesOf = (id: string) => (data?.comments ?? []).filter((c) => c.parentCommentId === id);
  return (
    <section className="card card--padded" aria-labelledby="task-comments-title">
      <div className="card-title-row">
        <h2 className="card__title" id="task-comments-title">
          Comments
        </h2>
        <input className="input comment-search" type="search" aria-label="Search comments" placeholder="Search comments" value={q} maxLength={MAX_Q} onChange={(e) => setQ(e.target.value)} />
      </div>
      {data ? (
        <p className="muted small" aria-live="polite">
          {data.query ? `${plural(data.matchedIds.length, 'match')} for “${data.query}” (${data.filtered} of ${data.total} shown)` : plural(data.total, 'comment')}
        </p>
      ) : null}
      {comments.error ? <FormError error={comments.error} /> : null}
      <ul className="comment-list" aria-label="Comments">
        {top.map((c) => (
          <CommentItem key={c.id} taskId={taskId} comment={c} isMatch={(id) => matched.has(id)} focusId={focusCommentId} replies={repliesOf(c.id)} />
        ))}
      </ul>
      <CommentForm taskId={taskId} label="New comment" />
    </section>
  );
}
