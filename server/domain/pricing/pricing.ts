import type { Plan } from '../../config';
import { PLANS } from '../../config';
import { PLAN_DEFAULT_DAILY_COST_CAP_CENTS, PLAN_LOOP_FLOOR_MINUTES, STALE_MEMORY_DAYS } from '../workspace/rules';

/**
 * GET /pricing: the plans as the desk enforces them. The numbers that differ by plan come from the
 * workspace rules the desk applies (DESK_PLAN seeds a fresh workspace): the loop interval's plan
 * floor (PLAN_LOOP_FLOOR_MINUTES) and the daily cost cap a new workspace starts with
 * (PLAN_DEFAULT_DAILY_COST_CAP_CENTS, in US cents, like the workspace's dailyCostCapUsdCents), so
 * the page cannot promise what the desk does not do.
 */

export interface PlanCaps {
  /** Display text: how many sources the plan connects. */
  sources: string;
  /** Display text: how long memory is kept. */
  memoryRetention: string;
  /** Display text: the fastest loop interval (the plan floor). */
  loopInterval: string;
  /** Display text: the default daily cost cap. */
  costCap: string;
  /** The plan floor of the loop interval, in minutes (a shorter requested interval runs at this one). @isInt */
  loopIntervalFloorMinutes: number;
}

export interface PricingPlan {
  slug: Plan;
  name: string;
  /** Display text, e.g. "$29". */
  price: string;
  /** Monthly price in US dollars. */
  priceUsd: number;
  /** Display text after the price, e.g. "per month". */
  priceSuffix: string;
  description: string;
  /** The plan the page highlights (pro). */
  featured: boolean;
  features: string[];
  caps: PlanCaps;
  /**
   * The daily cost cap a new workspace on this plan starts with, in US cents as the public
   * document states (free 50, pro 500, team 2000): despite the name, this is a number of cents,
   * the same value as defaultDailyCostCapUsdCents and as the workspace's dailyCostCapUsdCents.
   * @isInt
   */
  defaultDailyCostCapUsd: number;
  /** The same default cap, named by its unit (US cents). @isInt */
  defaultDailyCostCapUsdCents: number;
  /** The plan's share URL: `{base_url}/pricing#plan-<slug>`. */
  url: string;
}

export interface RejectedPricingModel {
  key: 'per-cycle-credits' | 'outcome-based-billing' | 'per-token-billing';
  name: string;
  /** How the model charges. */
  howItWorks: string;
  /** Why Desk does not charge this way. */
  whyNot: string;
}

export interface CompetitorComparison {
  title: string;
  /** The three pricing models Desk rejects. */
  rejectedModels: RejectedPricingModel[];
}

export interface PricingSummary {
  /** @isInt */
  planCount: number;
  /** The lowest monthly price of any plan, in US dollars (0: the free plan). */
  startingPriceUsd: number;
  featuredPlanSlug: Plan;
  positioningNotes: string[];
}

export interface Pricing {
  /** @format date-time */
  generatedAt: string;
  /** Currency of every price (USD). */
  currency: 'USD';
  /** free, pro, team, in that order. */
  plans: PricingPlan[];
  competitorComparison: CompetitorComparison;
  summary: PricingSummary;
}

const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

const PLAN_TEXT: Record<Plan, { name: string; priceUsd: number; priceSuffix: string; description: string; features: string[] }> = {
  free: {
    name: 'Free',
    priceUsd: 0,
    priceSuffix: 'forever, on your own machine',
    description: 'For one operator trying the desk on a side business or a single inbox of signals.',
    features: [
      'The whole desk on your machine: signals, sources, tasks, memory, outputs and the review queue',
      'Built-in offline engine, or your own OpenAI-compatible model (Ollama, LM Studio, OpenAI)',
      'Inbound webhook, RSS, Atom and JSON feeds, CSV and JSON file sources, relay for machines behind NAT',
      'Outbound webhooks signed to the Standard Webhooks spec, exports (CSV, JSON) and import',
      'Cost guardrails per task, tag, source, assignee and memory entry',
      'Members with roles, reviewers and @mentions',
    ],
  },
  pro: {
    name: 'Pro',
    priceUsd: 29,
    priceSuffix: 'per month',
    description: 'For an operator who runs the business on the desk every day and wants it to look more often.',
    features: ['Everything in Free', 'Cycles as often as every 5 minutes', 'A daily cost cap sized for a busy desk'],
  },
  team: {
    name: 'Team',
    priceUsd: 79,
    priceSuffix: 'per month',
    description: 'For a small team sharing one desk: several members reviewing outputs, with the loop close to real time.',
    features: ['Everything in Pro', 'Cycles as often as every minute', 'A daily cost cap sized for a team’s volume'],
  },
};

export function pricing(baseUrl: string, now: Date): Pricing {
  const plans = PLANS.map((slug): PricingPlan => {
    const text = PLAN_TEXT[slug];
    const capCents = PLAN_DEFAULT_DAILY_COST_CAP_CENTS[slug];
    const floor = PLAN_LOOP_FLOOR_MINUTES[slug];
    return {
      slug,
      name: text.name,
      price: `$${text.priceUsd}`,
      priceUsd: text.priceUsd,
      priceSuffix: text.priceSuffix,
      description: text.description,
      featured: slug === 'pro',
      features: [...text.features, `AI spend capped at ${usd(capCents)} a day by default (you can raise, lower or remove the cap)`],
      caps: {
        sources: 'Unlimited sources',
        memoryRetention: `Kept until you archive or delete it; optional auto-archive of entries unused for ${STALE_MEMORY_DAYS.min}-${STALE_MEMORY_DAYS.max} days`,
        loopInterval: floor === 1 ? 'A cycle as often as every minute' : `A cycle as often as every ${floor} minutes`,
        costCap: `${usd(capCents)} a day by default`,
        loopIntervalFloorMinutes: floor,
      },
      defaultDailyCostCapUsd: capCents,
      defaultDailyCostCapUsdCents: capCents,
      url: `${baseUrl}/pricing#plan-${slug}`,
    };
  });
  return {
    generatedAt: now.toISOString(),
    currency: 'USD',
    plans,
    competitorComparison: {
      title: 'Three ways of charging for AI work that Desk does not use',
      rejectedModels: [
        {
          key: 'per-cycle-credits',
          name: 'Per-cycle credits',
          howItWorks: 'You buy a bundle of credits and every run of the agent spends some, whether it found anything to do or not.',
          whyNot: 'It makes you ration how often the desk looks. Desk skips idle cycles for free and lets you set the interval; the plan only sets how short it may be.',
        },
        {
          key: 'outcome-based-billing',
          name: 'Outcome-based billing',
          howItWorks: 'The vendor charges per "resolved" ticket, drafted reply or other outcome it decides it delivered.',
          whyNot: 'The vendor decides what counted, and you pay more the more you rely on it. Desk charges a flat monthly price; every output waits for your decision.',
        },
        {
          key: 'per-token-billing',
          name: 'Per-token billing with a markup',
          howItWorks: 'Model usage is resold by the token, at a margin, on an invoice you see at the end of the month.',
          whyNot: 'Desk never resells tokens: you run your own model or bring your own API key, see every cycle’s estimated cost, and a daily cap stops the loop before spend runs away.',
        },
      ],
    },
    summary: {
      planCount: plans.length,
      startingPriceUsd: Math.min(...plans.map((p) => p.priceUsd)),
      featuredPlanSlug: 'pro',
      positioningNotes: [
        'Flat monthly prices: no credits, no per-outcome fees, no token markup.',
        'Local-first: the desk, its data and its backups stay on your machine.',
        'Hard cost guardrails on every plan: a daily cap and spike alerts on your own model spend.',
      ],
    },
  };
}
