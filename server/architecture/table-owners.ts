import type { DB } from '../../db/schema';

/**
 * One writer per table: the module that is the only code issuing INSERT, UPDATE or DELETE to
 * it. Every other module (other areas, the loop's cycle, import, templates, the bench and the
 * test fixtures) calls that module's functions. one-writer.test.ts scans the code and fails on a
 * write anywhere else, and on a table without an entry, so a new table needs its owner here.
 * Migrations (schema) and SQLite triggers are not application writes and are not scanned.
 */

/** Tables that only SQLite triggers write (full-text indexes following their base table). */
export const TRIGGERS = 'triggers';

const WORKSPACE = 'server/domain/workspace/workspace-store.ts';
const MEMBERS = 'server/domain/members/member-store.ts';
const SOURCES = 'server/domain/sources/source-store.ts';
const SIGNALS = 'server/domain/signals/signal-store.ts';
const TASKS = 'server/domain/tasks/task-store.ts';
const COMMENTS = 'server/domain/comments/comment-store.ts';
const MEMORY = 'server/domain/memory/memory-store.ts';
const ARTIFACTS = 'server/domain/artifacts/artifact-store.ts';
const REACTIONS = 'server/domain/reactions/reaction-store.ts';
const COST_GUARD = 'server/domain/cost-guard/watch-store.ts';
const DASHBOARD_PREFS = 'server/domain/dashboard-prefs/prefs-store.ts';
const DIGEST = 'server/domain/digest/digest-store.ts';
const SUBSCRIPTIONS = 'server/domain/outbound/subscription-store.ts';
const DELIVERIES = 'server/domain/outbound/delivery-store.ts';
const SEARCH = 'server/domain/search/search-index.ts';

export const TABLE_OWNERS = {
  workspace: WORKSPACE,
  focusShifts: WORKSPACE,
  users: MEMBERS,
  invites: MEMBERS,
  dashboardPrefs: DASHBOARD_PREFS,
  dashboardCommentFilters: DASHBOARD_PREFS,
  digestState: DIGEST,
  digestAudit: DIGEST,
  activity: 'server/domain/activity/activity.ts',
  outboxEvents: 'server/domain/events/outbox.ts',
  schedulerJobs: 'server/jobs/scheduler.ts',
  sources: SOURCES,
  feedItemsSeen: SOURCES,
  signals: SIGNALS,
  signalReactions: REACTIONS,
  idempotencyKeys: 'server/domain/idempotency/idempotency.ts',
  ingestTokens: 'server/domain/ingest/ingest-service.ts',
  mcpTokens: 'server/domain/mcp-tokens/mcp-token-store.ts',
  tasks: TASKS,
  taskTags: TASKS,
  taskBlockers: TASKS,
  taskNotes: TASKS,
  taskWorkLog: TASKS,
  taskViews: 'server/domain/sharing/share-service.ts',
  taskComments: COMMENTS,
  commentReactions: REACTIONS,
  commentMentions: COMMENTS,
  taskTemplates: 'server/domain/templates/template-service.ts',
  sharedSavedSearches: 'server/domain/saved-searches/saved-search-service.ts',
  memory: MEMORY,
  memoryTags: MEMORY,
  memoryReactions: REACTIONS,
  memoryRetrievalDaily: MEMORY,
  memoryFts: TRIGGERS,
  runs: 'server/domain/loop/run-record.ts',
  artifacts: ARTIFACTS,
  artifactTags: ARTIFACTS,
  artifactReactions: REACTIONS,
  costDaily: 'server/domain/cost/cost-ledger.ts',
  costWatch: COST_GUARD,
  costGuardState: COST_GUARD,
  outboundSubscriptions: SUBSCRIPTIONS,
  outboundSubscriptionEvents: SUBSCRIPTIONS,
  outboundDeliveries: DELIVERIES,
  outboundAttempts: DELIVERIES,
  searchDocs: SEARCH,
  searchFts: SEARCH,
  searchQueue: SEARCH,
  roadmapVotes: 'server/domain/roadmap/roadmap-service.ts',
  badgeToken: 'server/domain/badge/badge-service.ts',
} as const satisfies Record<keyof DB, string>;

/**
 * Owners that name their table at run time (one statement shape for several tables): the
 * tables they may reach, each of which they own.
 */
export const RUNTIME_NAMED_WRITES: Record<string, (keyof DB)[]> = {
  [REACTIONS]: ['signalReactions', 'commentReactions', 'memoryReactions', 'artifactReactions'],
};

/** Files that may write tables they do not own, and why. Keep it short: each entry is a debt or a tool. */
export const WRITE_EXCEPTIONS: Record<string, { tables: (keyof DB)[] | 'any'; why: string }> = {
  'db/compiled.ts': { tables: 'any', why: 'insertRow, the compiled insert every owner uses: its callers are checked by table name' },
  'server/testing/fixtures/desk-snapshot.ts': { tables: 'any', why: 'puts a whole database snapshot back (every table, as it was)' },
  'server/testing/read-tables.ts': { tables: 'any', why: "a DELETE that matches no row on every table before each read the fuzz records, so the table caches are emptied and the read's cold SQL is seen" },
  'server/bench/throughput.ts': { tables: 'any', why: 'the bare-Express floors: raw better-sqlite3 on their own tables, the baseline the desk is measured against' },
  'server/bench/full/desk-schema-floor.ts': { tables: 'any', why: 'the schema floor: what POST /signals writes as raw better-sqlite3 statements, the baseline the desk is measured against' },
  'server/bench/full/ui-dataset.ts': { tables: 'any', why: "the UI bench's 1M-signal dataset: what the webhook path writes per signal, as raw statements on a copy of the bench dataset (the path itself takes hours there)" },
};
