/**
 * Every react-query key of the app, in one registry. Keys are arrays whose first element is the area:
 * invalidating `queryKeys.sources.all` refreshes every sources query, a narrower key one list. A feature's
 * api.ts builds its queries from here and its mutations name what they affect from here
 * (`useDeskMutation({ affects: [queryKeys.sources.all] })`), so no area spells another area's keys.
 *
 * A new area adds one entry: `tasks: { all: ['tasks'], list: (f) => [...], detail: (id) => [...] }`.
 */

/** A list's filter, part of its key: a changed filter is another cache entry. */
type Filter = Readonly<Record<string, unknown>>;

export const queryKeys = {
  activity: {
    all: ['activity'] as const,
    list: (filter: Filter) => ['activity', 'list', filter] as const,
  },
  signals: {
    all: ['signals'] as const,
    lists: ['signals', 'list'] as const,
    list: (filter: Filter) => ['signals', 'list', filter] as const,
    detail: (id: string) => ['signals', 'detail', id] as const,
  },
  sources: {
    all: ['sources'] as const,
    lists: ['sources', 'list'] as const,
    list: (filter: Filter = {}) => ['sources', 'list', filter] as const,
    detail: (id: string) => ['sources', 'detail', id] as const,
    /** Every source in one answer, for pickers (the Signals page's source filter). */
    options: ['sources', 'options'] as const,
    cadence: ['sources', 'cadence-overview'] as const,
    quietness: ['sources', 'quietness'] as const,
    scheduledPaused: ['sources', 'scheduled-paused'] as const,
  },
  workspace: {
    all: ['workspace'] as const,
    profile: ['workspace', 'profile'] as const,
    focusHistory: (sinceDays: number) => ['workspace', 'focus-history', sinceDays] as const,
    /** The AI engine settings (Settings > AI engine). */
    engine: ['workspace', 'engine'] as const,
  },
  integrations: {
    all: ['integrations'] as const,
    inbound: ['integrations', 'inbound'] as const,
    /** A source's scoped ingest URLs (no secrets). */
    ingestTokens: (sourceId: string) => ['integrations', 'ingest-tokens', sourceId] as const,
    /** MCP tokens of AI assistants (no secrets) and where they connect. */
    mcpTokens: ['integrations', 'mcp-tokens'] as const,
  },
  outbound: {
    all: ['outbound'] as const,
    /** Webhook subscriptions and the event vocabulary (one answer). */
    subscriptions: ['outbound', 'subscriptions'] as const,
    deliveries: (filter: Filter) => ['outbound', 'deliveries', filter] as const,
  },
  members: {
    all: ['members'] as const,
    /** Members and pending invites (one answer). */
    list: ['members', 'list'] as const,
  },
  templates: {
    all: ['templates'] as const,
    list: ['templates', 'list'] as const,
  },
  /** The public roadmap, its vote counts and the signed-in member's votes (features/roadmap). */
  roadmap: {
    all: ['roadmap'] as const,
    items: ['roadmap', 'items'] as const,
    votes: ['roadmap', 'votes'] as const,
    mine: ['roadmap', 'mine'] as const,
  },
  /** The health badge's read-only token (Settings > Health badge). */
  badge: {
    all: ['badge'] as const,
    token: ['badge', 'token'] as const,
  },
  tasks: {
    all: ['tasks'] as const,
    lists: ['tasks', 'list'] as const,
    list: (filter: Filter) => ['tasks', 'list', filter] as const,
    detail: (id: string) => ['tasks', 'detail', id] as const,
    notes: (id: string) => ['tasks', 'notes', id] as const,
    timeline: (id: string) => ['tasks', 'timeline', id] as const,
    /** What a task links to: its outputs and its originating signals. */
    outputs: (id: string) => ['tasks', 'outputs', id] as const,
    sources: (id: string) => ['tasks', 'sources', id] as const,
    /** A task's comments under a filter (q). */
    comments: (id: string, filter: Filter = {}) => ['tasks', 'comments', id, filter] as const,
  },
  backups: {
    all: ['backups'] as const,
    list: ['backups', 'list'] as const,
  },
  memory: {
    all: ['memory'] as const,
    lists: ['memory', 'list'] as const,
    list: (filter: Filter) => ['memory', 'list', filter] as const,
    detail: (id: string) => ['memory', 'detail', id] as const,
    stale: (filter: Filter) => ['memory', 'stale', filter] as const,
    topRetrieved: (days: number) => ['memory', 'top-retrieved', days] as const,
    topCost: ['memory', 'top-cost'] as const,
    retrievalTrajectory: (id: string, days: number) => ['memory', 'retrieval-trajectory', id, days] as const,
    costTrajectory: (id: string, days: number) => ['memory', 'cost-trajectory', id, days] as const,
  },
  /** Outputs (artifacts): the list, one output, its sources and versions. */
  artifacts: {
    all: ['artifacts'] as const,
    lists: ['artifacts', 'list'] as const,
    list: (filter: Filter) => ['artifacts', 'list', filter] as const,
    detail: (id: string) => ['artifacts', 'detail', id] as const,
    sources: (id: string) => ['artifacts', 'sources', id] as const,
    versions: (id: string) => ['artifacts', 'versions', id] as const,
  },
  /** Loop cycles (GET /runs, GET /runs/{id}). */
  runs: {
    all: ['runs'] as const,
    lists: ['runs', 'list'] as const,
    detail: (id: string) => ['runs', 'detail', id] as const,
  },
  /** Cost: today against the cap, breakdowns and trajectories (GET /cost/..., /tasks/top-cost). */
  cost: {
    all: ['cost'] as const,
    today: ['cost', 'today'] as const,
    breakdown: (kind: 'assignees' | 'tags' | 'sources' | 'tasks', filter: Filter) => ['cost', kind, filter] as const,
    /** The cost guard's spike or chronic list of one dimension. */
    guard: (kind: 'spike' | 'chronic', dimension: string) => ['cost', 'guard', kind, dimension] as const,
  },
  /** The Home page's overview reads (/workspace/summary, /today, /whats-new, /personal-inbox, /insights, /reactions-summary). */
  overview: {
    all: ['overview'] as const,
    summary: ['overview', 'summary'] as const,
    today: ['overview', 'today'] as const,
    whatsNew: (since: string | null) => ['overview', 'whats-new', since] as const,
    inbox: (userId: string | null) => ['overview', 'personal-inbox', userId] as const,
    insights: ['overview', 'insights'] as const,
    reactions: ['overview', 'reactions-summary'] as const,
  },
  /** GET /stats: desk health, next cycle, today's spend. */
  stats: {
    all: ['stats'] as const,
  },
  /** GET /workspace/dashboard-prefs: the signed-in user's layout and digest preferences (features/preferences). */
  preferences: {
    all: ['preferences'] as const,
    dashboard: ['preferences', 'dashboard'] as const,
  },
  /** The digest (Settings > Digest): config, per-recipient gating, preview, audit. */
  digest: {
    all: ['digest'] as const,
    config: ['digest', 'config'] as const,
    gating: (simulatedDate: string | null) => ['digest', 'gating', simulatedDate] as const,
    preview: (userId: string | null, simulatedDate: string | null) => ['digest', 'preview', userId, simulatedDate] as const,
    audit: (sinceDays: number) => ['digest', 'audit', sinceDays] as const,
  },
  /** GET /search (the global search box) and GET /workspace/tag-search. */
  search: {
    all: ['search'] as const,
    results: (q: string) => ['search', 'results', q] as const,
    tag: (tag: string) => ['search', 'tag', tag] as const,
  },
  /** The onboarding-template catalog (public reads) the onboarding flow browses. */
  onboarding: {
    all: ['onboarding'] as const,
    catalog: ['onboarding', 'catalog'] as const,
    search: (q: string) => ['onboarding', 'search', q] as const,
    detail: (key: string) => ['onboarding', 'detail', key] as const,
  },
} as const;
