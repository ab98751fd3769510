/**
 * The document's global tag list: one tag per group of operations (each controller's @Tags), with
 * what the group is for, in the order the API reference shows them. `npm run gen` writes it into
 * the document; tags.test.ts fails on an operation whose tag is not here, or a tag nothing uses
 * (Spectral's operation-tag-defined and the API reference's group descriptions need both).
 */
export interface DocumentTag {
  name: string;
  description: string;
}

export const DOCUMENT_TAGS: readonly DocumentTag[] = [
  { name: 'Workspace configuration', description: 'The workspace profile and settings: the loop and its schedule, the AI engine, focus tags, the approval policy, archiving, cost caps and spike settings, the token and the badge token.' },
  { name: 'Members', description: 'Members, invites and roles; the acting member of a request (asUserId).' },
  { name: 'Signals', description: 'Signals: created by the API, listed and read, changed in bulk, reacted to.' },
  { name: 'Sources', description: 'Where signals come from: manual sources and feeds, their sync cadence, pauses and quietness.' },
  { name: 'Scoped ingest URLs', description: 'Per-source ingest tokens: URLs a service posts signals to without the workspace token.' },
  { name: 'Inbound webhook', description: 'The inbound signal webhook, reached directly or through the relay, guarded by its ingest token.' },
  { name: 'Tasks', description: 'Tasks: their fields, status, blockers, notes, work log, tags, cost and timeline; bulk changes.' },
  { name: 'Task comments', description: 'Comments on tasks and the mentions they carry.' },
  { name: 'Task templates and saved searches', description: 'Task templates, and searches shared with the team.' },
  { name: 'Task sharing', description: "Public pages of a task's work log and timeline, and who has viewed them." },
  { name: 'Artifacts', description: 'Outputs of the loop: the review queue, decisions, versions, sources, tags and reactions.' },
  { name: 'Memory', description: 'Durable memory: entries, their tags, retrieval by the loop and its history.' },
  { name: 'Loop runs', description: 'Loop cycles: Run now, cancel, and the record of each run.' },
  { name: 'Cost', description: "The AI spend: today against the cap, breakdowns, trajectories, the cost guard's spikes and the cost export." },
  { name: 'Overview', description: 'Read-only figures of the Home page: today, the summary, what is new, the inbox, insights.' },
  { name: 'Search', description: 'Full-text search across the desk, tag search across kinds, and renaming or merging a tag.' },
  { name: 'Activity', description: 'The activity log: one row per change, filtered and paged.' },
  { name: 'Events', description: 'The outbox of events every change emits, read in order, as outbound webhooks receive them.' },
  { name: 'Outbound webhooks', description: 'Outbound webhook subscriptions and their signed deliveries, retries and bulk changes.' },
  { name: 'Integrations', description: 'The inbound webhook address of this desk and the relay channel that reaches it from outside.' },
  { name: 'MCP tokens', description: 'Tokens of AI assistants that reach Desk through its MCP server (/mcp and `npm run mcp`): issued, listed and revoked here, read-only or read-write, never the workspace token.' },
  { name: 'Digest', description: 'The daily digest: its settings, who gets it and why, its preview on a simulated day, and its audit.' },
  { name: 'Dashboard preferences', description: "A member's Home layout and digest preferences, with optimistic concurrency." },
  { name: 'Exports', description: 'CSV and JSON exports of every list (RFC 4180, a UTF-8 byte-order mark, at most 5000 rows) with their totals.' },
  { name: 'Backups', description: 'Online backups of the database and their list.' },
  { name: 'Onboarding templates', description: 'Starter templates: the public catalog, and applying one to the workspace.' },
  { name: 'Roadmap', description: 'The public roadmap and its votes.' },
  { name: 'Public', description: 'Endpoints without a token: the roadmap, pricing, integrations catalog, changelog, blog, the health badge and this OpenAPI document.' },
];

/** The document with its global tag list. */
export function withTags<D extends object>(doc: D): D & { tags: DocumentTag[] } {
  return { ...doc, tags: DOCUMENT_TAGS.map((t) => ({ ...t })) };
}
