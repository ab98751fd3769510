import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { QUERY } from '../../../api/rules.gen';
import { FormError } from '../../../components/FormError';
import { useDebounced } from '../../../lib/use-debounced';
import { staleMemoryQuery, topCostQuery, topRetrievedQuery } from '../api';
import { formatUsd, plural } from '../../../lib/format';
import { Sparkline } from '../../../components/Sparkline';

const STALE = QUERY.listStaleMemory.thresholdDays;
const TOP_DAYS = QUERY.getTopRetrievedMemory.days;

const EntryLink = ({ id, title }: { id: string; title: string }) => (
  <Link className="memory-insight__title" to="/memory/$memoryId" params={{ memoryId: id }}>
    {title}
  </Link>
);

/** Entries no cycle has used within the threshold (pinned and importance 9+ never show). */
export function StalePanel() {
  const [text, setText] = useState(String(STALE.default));
  const [includeNeverRetrieved, setIncludeNever] = useState(true);
  const parsed = Number(useDebounced(text));
  const valid = Number.isInteger(parsed) && parsed >= STALE.minimum && parsed <= STALE.maximum;
  const thresholdDays = valid ? parsed : STALE.default;
  const stale = useQuery(staleMemoryQuery({ thresholdDays, includeNeverRetrieved }));
  return (
    <section className="card memory-insight" aria-labelledby="memory-stale-title">
      <header className="card__header">
        <h2 className="card__title" id="memory-stale-title">
          Stale
        </h2>
        <p className="card__description">Not used by a cycle within the threshold. Archive or sharpen them.</p>
      </header>
      <div className="card__body">
        <div className="memory-insight__controls">
          <label className="memory-insight__threshold">
            <span className="small">Not used for</span>
            <input
              className="input input--number"
              type="number"
              aria-label="Stale threshold in days"
              aria-invalid={valid ? undefined : true}
              min={STALE.minimum}
              max={STALE.maximum}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
            <span className="small">days</span>
          </label>
          <label className="checkbox small">
            <input type="checkbox" checked={includeNeverRetrieved} onChange={(e) => setIncludeNever(e.target.checked)} />
            <span>Include never used</span>
          </label>
        </div>
        {!valid ? <p className="inline-error">Between {STALE.minimum} and {STALE.maximum} days.</p> : null}
        <FormError error={stale.error} />
        {stale.data ? (
          stale.data.memory.length === 0 ? (
            <p className="muted small">Nothing stale at {stale.data.thresholdDays} days.</p>
          ) : (
            <ul className="memory-insight__list" aria-label="Stale entries">
              {stale.data.memory.map((m) => (
                <li key={m.id}>
                  <EntryLink id={m.id} title={m.title} />
                  <span className="muted small">
                    {m.daysSinceRetrieved === null ? `never used · added ${plural(m.daysSinceCreated, 'day')} ago` : `last used ${plural(m.daysSinceRetrieved, 'day')} ago`}
                  </span>
                </li>
              ))}
            </ul>
          )
        ) : null}
      </div>
    </section>
  );
}

/** The entries cycles pull most, with a 7-day sparkline each. */
export function TopRetrievedPanel() {
  const [days, setDays] = useState<number>(TOP_DAYS.default);
  const top = useQuery(topRetrievedQuery(days));
  return (
    <section className="card memory-insight" aria-labelledby="memory-top-retrieved-title">
      <header className="card__header">
        <h2 className="card__title" id="memory-top-retrieved-title">
          Most used
        </h2>
        <p className="card__description">What the cycles retrieve most.</p>
      </header>
      <div className="card__body">
        <div className="memory-insight__controls">
          <label className="small">
            Window{' '}
            <select className="input input--select input--small" value={days} onChange={(e) => setDays(Number(e.target.value))} aria-label="Most used window">
              {[TOP_DAYS.default, 14, TOP_DAYS.maximum].map((d) => (
                <option key={d} value={d}>
                  {d} days
                </option>
              ))}
            </select>
          </label>
        </div>
        <FormError error={top.error} />
        {top.data ? (
          top.data.memory.length === 0 ? (
            <p className="muted small">No retrievals in {top.data.days} days.</p>
          ) : (
            <ol className="memory-insight__list" aria-label="Most used entries">
              {top.data.memory.map((m) => (
                <li key={m.id}>
                  <EntryLink id={m.id} title={m.title} />
                  <span className="memory-insight__figure small">
                    <Sparkline values={m.trajectory7d.map((p) => p.count)} label={`Daily retrievals of ${m.title} over 7 days`} />
                    {plural(m.retrievalsInWindow, 'retrieval')}
                  </span>
                </li>
              ))}
            </ol>
          )
        ) : null}
      </div>
    </section>
  );
}

/** The entries with the most attributed cost. */
export function TopCostPanel() {
  const top = useQuery(topCostQuery());
  return (
    <section className="card memory-insight" aria-labelledby="memory-top-cost-title">
      <header className="card__header">
        <h2 className="card__title" id="memory-top-cost-title">
          Most cost
        </h2>
        <p className="card__description">Attributed by equal split of each cycle&apos;s tokens across the entries it pulled.</p>
      </header>
      <div className="card__body">
        <FormError error={top.error} />
        {top.data ? (
          top.data.memory.length === 0 ? (
            <p className="muted small">No cost attributed yet.</p>
          ) : (
            <ol className="memory-insight__list" aria-label="Costliest entries">
              {top.data.memory.map((m) => (
                <li key={m.id}>
                  <EntryLink id={m.id} title={m.title} />
                  <span className="memory-insight__figure small" title={`${m.totalAttributedInputTokens} input, ${m.totalAttributedOutputTokens} output tokens`}>
                    {formatUsd(m.estimatedCostUsd)} · {plural(m.retrievalCount, 'use')}
                  </span>
                </li>
              ))}
            </ol>
          )
        ) : null}
      </div>
    </section>
  );
}
