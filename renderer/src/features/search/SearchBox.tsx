import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { QUERY } from '../../api/rules.gen';
import { formatRelative } from '../../lib/format';
import { searchQuery, type SearchHit } from './api';
import { Marked } from './Marked';
import { TagPanel } from './TagPanel';
import './search.css';

/** Results wait this long after the last keystroke (one request per pause, not per key). */
export const SEARCH_DEBOUNCE_MS = 200;
/** The API's bound on q. */
const MAX_QUERY = QUERY.search.q.maxLength;

/** Each hit says what it is; hits stay in the API's rank order (grouping by kind put 14 outputs before the best hit). */
export const KIND_LABELS: Record<SearchHit['kind'], string> = {
  task: 'Task',
  artifact: 'Output',
  memory: 'Memory',
  signal: 'Signal',
  comment: 'Comment',
  source: 'Source',
  activity: 'Activity',
};

function useDebounced(value: string, ms: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/**
 * The global search box in the shell header: Ctrl+K / Cmd+K or `/` focuses it; results come as you
 * type (GET /search), best first as the API ranks them, each labelled with its kind and the matched words marked; arrow keys move, Enter opens
 * the hit's page, Escape closes. `tag:<name>` lists what carries a tag and offers its rename.
 * Only Ctrl+K and `/` are bound outside the box, so the review queue keeps j/k/a/e/o/?.
 */
export function SearchBox() {
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const q = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);
  const tag = /^tag:/i.test(q) ? q.slice(4).trim().toLowerCase() : null;
  const results = useQuery({ ...searchQuery(q), enabled: open && q !== '' && tag === null });

  const flat = useMemo(() => results.data?.hits ?? [], [results.data]);
  // The highlighted hit belongs to one answer: a new answer starts at its first hit.
  const [cursor, setCursor] = useState<{ of: unknown; index: number }>({ of: undefined, index: 0 });
  const active = cursor.of === results.data ? cursor.index : 0;
  const setActive = (next: number | ((i: number) => number)) => setCursor({ of: results.data, index: typeof next === 'function' ? next(active) : next });

  const focus = (e: KeyboardEvent) => {
    e.preventDefault();
    input.current?.focus();
    input.current?.select();
    setOpen(true);
  };
  useHotkeys('mod+k', focus, { enableOnFormTags: true });
  useHotkeys('slash', focus);

  const close = () => {
    setOpen(false);
    input.current?.blur();
  };
  const go = (route: string) => {
    close();
    setText('');
    void navigate({ href: route });
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
    } else if (e.key === 'ArrowDown' && flat.length > 0) {
      e.preventDefault();
      setActive((i) => (i + 1) % flat.length);
    } else if (e.key === 'ArrowUp' && flat.length > 0) {
      e.preventDefault();
      setActive((i) => (i - 1 + flat.length) % flat.length);
    } else if (e.key === 'Enter' && flat[active]) {
      e.preventDefault();
      go(flat[active].route);
    }
  };

  const showPanel = open && text.trim() !== '';
  return (
    <div className="search-box" onBlur={(e) => (e.currentTarget.contains(e.relatedTarget) ? undefined : setOpen(false))}>
      <input
        ref={input}
        type="search"
        className="input search-box__input"
        placeholder="Search everything (Ctrl+K)"
        aria-label="Search the desk"
        aria-expanded={showPanel}
        aria-controls="search-results"
        aria-activedescendant={showPanel && flat[active] ? `search-hit-${active}` : undefined}
        role="combobox"
        maxLength={MAX_QUERY}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={onKeyDown}
      />
      {showPanel && (
        // In the tab order (after the box, before the page) so its scroll is reachable by keyboard too;
        // the options themselves are reached with the arrows from the box.
        <div className="search-box__panel" id="search-results" tabIndex={0}>
          {tag !== null ? (
            <TagPanel tag={tag} onOpen={go} />
          ) : results.error ? (
            <p className="form-error small" role="alert">
              {results.error.message}
            </p>
          ) : results.data && flat.length === 0 && q === text.trim() ? (
            <p className="search-box__empty muted small">Nothing matches “{q}”.</p>
          ) : (
            <div role="listbox" aria-label="Search results">
              {flat.map((hit, i) => (
                <div
                  key={`${hit.kind}:${hit.id}`}
                  id={`search-hit-${i}`}
                  role="option"
                  aria-selected={i === active}
                  className={`search-box__hit${i === active ? ' is-active' : ''}`}
                  onMouseDown={(e) => e.preventDefault()}
                  onMouseEnter={() => setActive(i)}
                  onClick={() => go(hit.route)}
                >
                  <span className="search-box__hit-kind">{KIND_LABELS[hit.kind]}</span>
                  <span className="search-box__title">
                    <Marked text={hit.title} marks={hit.titleMarks} />
                  </span>
                  <time className="search-box__time muted small" dateTime={hit.at}>
                    {formatRelative(hit.at)}
                  </time>
                  {hit.snippet && hit.snippet !== hit.title && (
                    <span className="search-box__snippet muted small">
                      <Marked text={hit.snippet} marks={hit.snippetMarks} />
                    </span>
                  )}
                </div>
              ))}
            </div>
          )}
          {tag === null && !results.error && results.data?.capped && flat.length > 0 ? <p className="muted small search-box__empty">Many rows match: showing the best of the newest. Add a word to narrow it.</p> : null}
        </div>
      )}
    </div>
  );
}
