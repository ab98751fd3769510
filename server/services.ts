import type { EventStream } from './domain/events/event-stream';
import type { Db } from '../db/connection';
import type { DeskConfig } from './config';
import type { Clock } from './core/clock';
import type { DiskSpace } from './core/disk-space';
import type { WorkspaceService } from './domain/workspace/workspace-service';
import type { SignalService } from './domain/signals/signal-service';
import type { ActivityService } from './domain/activity/activity-service';
import type { SourceService } from './domain/sources/source-service';
import type { SourceSync } from './domain/sources/source-sync';
import type { Scheduler } from './jobs/scheduler';
import type { BackupService } from './domain/backups/backup-service';
import type { RelayClient } from './integrations/relay/relay-client';
import type { IngestTokenService } from './domain/ingest/ingest-service';
import type { McpTokenService } from './domain/mcp-tokens/mcp-token-service';
import type { CommentService } from './domain/comments/comment-service';
import type { ShareService } from './domain/sharing/share-service';
import type { MemberService } from './domain/members/member-service';
import type { TemplateService } from './domain/templates/template-service';
import type { SavedSearchService } from './domain/saved-searches/saved-search-service';
import type { TaskService } from './domain/tasks/task-service';
import type { ArtifactService } from './domain/artifacts/artifact-service';
import type { LoopService } from './domain/loop/loop-service';
import type { StatsService } from './domain/stats/stats-service';
import type { EngineSettingsService } from './domain/engine-settings/engine-settings-service';
import type { MemoryService } from './domain/memory/memory-service';
import type { ReviewAttentionWatcher } from './domain/artifacts/attention-watcher';
import type { CostService } from './domain/cost/cost-service';
import type { OverviewService } from './domain/overview/overview-service';
import type { CostGuardService } from './domain/cost-guard/cost-guard-service';
import type { OutboundService } from './domain/outbound/outbound-service';
import type { ExportService } from './domain/exports/export-service';
import type { SearchService } from './domain/search/search-service';
import type { TagService } from './domain/tags/tag-service';
import type { DashboardPrefsService } from './domain/dashboard-prefs/prefs-service';
import type { DigestService } from './domain/digest/digest-service';
import type { RoadmapService } from './domain/roadmap/roadmap-service';
import type { BadgeService } from './domain/badge/badge-service';
import type { OnboardingService } from './domain/onboarding/apply-template';

/** Everything a controller or job may use, built once per running desk by startDesk(). */
export interface Services {
  config: DeskConfig;
  clock: Clock;
  /** The data folder's disk: a write refused for want of space holds scheduled work until there is room again (507 disk_full). */
  diskSpace: DiskSpace;
  db: Db;
  /**
   * The workspace token: bearer token of the API and address of the inbound webhook. Read on every
   * request (never copied): a rotation (WorkspaceService.rotateToken) replaces it here at once.
   */
  token: string;
  /** This server's own base URL (http://127.0.0.1:port), known once it listens; '' before. */
  localUrl: string;
  workspace: WorkspaceService;
  scheduler: Scheduler;
  signals: SignalService;
  activity: ActivityService;
  sources: SourceService;
  /** Feed polling and file import of sources (the feed-poll job drives it). */
  sourceSync: SourceSync;
  /** Relay channel client that hands relayed requests to the signal service in-process (started once the server listens). */
  relay: RelayClient;
  /** Scoped ingest URLs: per-source tokens that can only push signals to their source. */
  ingest: IngestTokenService;
  /** MCP tokens of AI assistants (read-only or read-write), and the activity rows of their tool calls. */
  mcpTokens: McpTokenService;
  /** Database backups in the data folder (daily job and on demand). */
  backups: BackupService;
  /** Task comments, their reactions and `@name` mentions. */
  comments: CommentService;
  /** Public share links of tasks' work log and timeline, and their view counts. */
  sharing: ShareService;
  /** Members and invites, reviewer availability. */
  members: MemberService;
  /** Task templates (at most 20). */
  templates: TemplateService;
  /** The team's shared saved searches (at most 30). */
  savedSearches: SavedSearchService;
  /** The task queue: tasks, notes, blockers, staleness and the stale sweep, timelines. */
  tasks: TaskService;
  /** Outputs: reads, provenance (sources, versions) and reactions. */
  artifacts: ArtifactService;
  /** The loop: cycles (scheduled and Run now), their run records. */
  loop: LoopService;
  /** GET /stats: health score, runtime phase, 7-day figures. */
  stats: StatsService;
  /** The AI engine settings (engine, model, base URL, the API key kept outside the database) and the engine a cycle runs with. */
  engineSettings: EngineSettingsService;
  /** Memory entries: CRUD, bulk, reactions, staleness, usage trajectories and tops, the stale sweep. */
  memory: MemoryService;
  /** The review queue's attention counts and newly overdue outputs, for the desktop's tray and notifications. */
  reviewAttention: ReviewAttentionWatcher;
  /** Cost reads: today against the cap, breakdowns by assignee, source and tag, trajectories, task cost, the cost export. */
  cost: CostService;
  /** The overview reads of the Home page: summary, today, what's new, personal inbox, insights, reactions summary. */
  overview: OverviewService;
  /** Cost guardrails: the spike detector (after cycles and every 15 s when something changed), spike and chronic lists, acks. */
  costGuard: CostGuardService;
  /** The outbox as a live stream (GET /events/stream). */
  eventStream: EventStream;
  /** Outbound webhooks: subscriptions, the delivery worker (fan-out, signed POSTs, retries) and the delivery log. */
  outbound: OutboundService;
  /** CSV/JSON exports (sources, activity, outputs, stale tasks, memory, the full JSON export) and the import of an export file. */
  exports: ExportService;
  /** GET /search: keyword search over the FTS5 index kept by triggers (db/migrations/0014_search.ts). */
  search: SearchService;
  /** Tags across the workspace: tag search and rename/merge. */
  tags: TagService;
  /** Per-member dashboard preferences (layout, density, comment filters, digest preferences), with optimistic concurrency. */
  dashboardPrefs: DashboardPrefsService;
  /** The daily digest: the scheduled run, previews, recipients' gating, config and the audit. */
  digest: DigestService;
  /** The public roadmap (content) and members' votes on it. */
  roadmap: RoadmapService;
  /** The health badge: its read-only token and the SVG (GET /badge.svg). */
  badge: BadgeService;
  /** Applying an onboarding template (its memories and sample signals) to the workspace. */
  onboarding: OnboardingService;
}
