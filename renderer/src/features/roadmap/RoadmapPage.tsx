import { useQuery } from '@tanstack/react-query';
import type { ROADMAP_STATUS } from '../../api/rules.gen';
import { FormError } from '../../components/FormError';
import { PageHeader, QueryState } from '../../components/Page';
import { Section } from '../../components/Section';
import { Sparkline } from '../../components/Sparkline';
import { myRoadmapVotesQuery, roadmapItemsQuery, roadmapVotesQuery, useRoadmapVote, type RoadmapItemVotes, type RoadmapItems } from './api';
import './roadmap.css';

const STATUS_LABEL: Record<(typeof ROADMAP_STATUS)[number], string> = { in_progress: 'In progress', planned: 'Planned', exploring: 'Exploring' };

type Item = RoadmapItems['phases'][number]['items'][number];

function ItemRow({ item, figures, voted, onToggle, busy }: { item: Item; figures: RoadmapItemVotes | undefined; voted: boolean; onToggle: () => void; busy: boolean }) {
  const votes = figures?.votes ?? 0;
  const momentum = figures?.momentum7d ?? 0;
  return (
    <li className="roadmap__item" aria-label={item.title}>
      <div className="roadmap__what">
        <h3 className="roadmap__title">
          {item.title} <span className={`roadmap__status roadmap__status--${item.status}`}>{STATUS_LABEL[item.status]}</span>
        </h3>
        <p className="roadmap__description">{item.description}</p>
      </div>
      <div className="roadmap__figures">
        <Sparkline values={(figures?.trend ?? []).map((p) => p.votes)} label={`Votes per day for ${item.title} over 14 days`} />
        <span className="muted">{momentum} this week</span>
      </div>
      <div className="roadmap__vote">
        <span className="roadmap__count">
          {votes} {votes === 1 ? 'vote' : 'votes'}
        </span>
        {/* One name whatever the state (aria-pressed says whether it is yours), holding the visible "Vote". */}
        <button type="button" className={`button button--small${voted ? '' : ' button--secondary'}`} aria-pressed={voted} disabled={busy} onClick={onToggle}>
          <span aria-hidden="true">▲</span> Vote<span className="sr-only"> for {item.title}</span>
        </button>
      </div>
    </li>
  );
}

/**
 * Roadmap: where Desk goes next, by phase, with vote counts, each item's 14-day trend and a vote
 * button for the signed-in operator (one vote per item, press again to take it back). The same
 * items and counts are public at /roadmap and /api/v1/roadmap-votes.
 */
export function RoadmapPage() {
  const items = useQuery(roadmapItemsQuery());
  const votes = useQuery(roadmapVotesQuery());
  const mine = useQuery(myRoadmapVotesQuery());
  const vote = useRoadmapVote();
  const figures = new Map((votes.data?.items ?? []).map((i) => [i.key, i]));
  const myKeys = new Set(mine.data?.itemKeys ?? []);
  const titleOf = (key: string) => items.data?.phases.flatMap((p) => p.items).find((i) => i.key === key)?.title ?? key;
  return (
    <div className="page roadmap">
      <PageHeader title="Roadmap" description="Where Desk goes next. Vote for what you want first: counts are public on the roadmap page, who voted is not." />
      <QueryState isPending={items.isPending} error={items.error} onRetry={() => void items.refetch()} />
      <FormError error={vote.error} />
      {votes.data && (votes.data.mostRequested.length > 0 || votes.data.mostTrending.length > 0) ? (
        <div className="roadmap__tops">
          {votes.data.mostRequested.length > 0 ? (
            <p>
              <strong>Most requested:</strong> {votes.data.mostRequested.map((r) => `${titleOf(r.key)} (${r.votes})`).join(' · ')}
            </p>
          ) : null}
          {votes.data.mostTrending.length > 0 ? (
            <p>
              <strong>Trending this week:</strong> {votes.data.mostTrending.map((r) => `${titleOf(r.key)} (+${r.momentum7d})`).join(' · ')}
            </p>
          ) : null}
        </div>
      ) : null}
      {items.data?.phases.map((phase) => (
        <Section key={phase.key} id={`phase-${phase.key}`} title={phase.name} description={phase.description}>
          <ul className="roadmap__list" aria-label={`${phase.name} items`}>
            {phase.items.map((item) => (
              <ItemRow
                key={item.key}
                item={item}
                figures={figures.get(item.key)}
                voted={myKeys.has(item.key)}
                busy={vote.isPending || mine.isPending}
                onToggle={() => vote.mutate({ key: item.key, vote: !myKeys.has(item.key) })}
              />
            ))}
          </ul>
        </Section>
      ))}
    </div>
  );
}
