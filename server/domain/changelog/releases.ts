/**
 * Desk's own release history, oldest first: the data behind /api/v1/changelog and the /changelog
 * pages. The revs and dates are fixed (the onboarding templates' `launchRev` values point at them,
 * and a test checks every one is a release here); titles and highlights tell how the product grew.
 */

export interface ReleaseHighlight {
  label: string;
  description: string;
}

export interface ReleaseRecord {
  /** The release number; served as the label `rev <n>`. */
  n: number;
  /** ISO date (UTC) the release shipped. */
  date: string;
  title: string;
  highlights: ReleaseHighlight[];
}

const h = (label: string, description: string): ReleaseHighlight => ({ label, description });

export const RELEASES: readonly ReleaseRecord[] = [
  {
    n: 1,
    date: '2026-01-06',
    title: 'A desk of your own',
    highlights: [
      h('Local-first workspace', 'Desk runs on your machine: one SQLite file in your data folder, the API and the web UI on 127.0.0.1, nothing hosted.'),
      h('Signals API', 'POST /signals records anything worth a look (news, a mention, a review, a metric) with a kind and a priority; GET /signals lists them newest first.'),
      h('Workspace token', 'One 256-bit bearer token guards the API; npm start prints a link that opens the UI already signed in.'),
      h('OpenAPI 3.1', 'GET /api/v1/openapi.json describes every route, and the API reference opens at /api/docs.'),
    ],
  },
  {
    n: 2,
    date: '2026-01-14',
    title: 'The inbound webhook',
    highlights: [
      h('Push signals in', 'Any service that can send a webhook can now feed the desk: single signals or batches, each checked field by field.'),
      h('Idempotency keys', 'A retried delivery with the same key is answered from the first response instead of recording the signal twice.'),
      h('External ids', 'Signals can carry the id they have in the system that sent them, so duplicates from a noisy sender are easy to spot.'),
    ],
  },
  {
    n: 3,
    date: '2026-01-21',
    title: 'Feed sources',
    highlights: [
      h('RSS, Atom, RDF and JSON Feed', 'Add a feed as a source and Desk polls it on its own cadence, turning new items into signals.'),
      h('Preview before you add', 'Paste a feed URL to see what it would bring in; unreachable, slow, oversized or non-feed URLs are named plainly.'),
      h('Per-source cadence', 'Each feed has its own poll interval, from every few minutes to once a day.'),
    ],
  },
  {
    n: 4,
    date: '2026-01-30',
    title: 'Sources you can steer',
    highlights: [
      h('Keyword filters', 'Include and exclude keywords per source keep a busy feed down to the items that matter.'),
      h('Pause and resume', 'Pause a source during a launch or a holiday without losing its settings; Poll now checks it on demand.'),
      h('File imports', 'Drop in a CSV or JSON export from another tool and its rows arrive as signals of a file source.'),
      h('Bulk actions', 'Pause, resume, rename or re-time many sources at once from the Sources page.'),
    ],
  },
  {
    n: 5,
    date: '2026-02-01',
    title: 'The relay',
    highlights: [
      h('Webhooks behind NAT', 'A desk on a laptop has no public address; a relay channel now carries webhook deliveries to it and hands them over in-process.'),
      h('Bring your own channel', 'Point Desk at any smee-compatible relay URL in Settings › Integrations; nothing is relayed until you set one.'),
    ],
  },
  {
    n: 6,
    date: '2026-02-06',
    title: 'Scoped ingest URLs and backups',
    highlights: [
      h('Scoped ingest URLs', 'Give each sender its own URL that can only push signals to one source, and revoke it without rotating the workspace token.'),
      h('Webhook rate limit', 'Failed token attempts count against a per-address limit, so a guessed URL gets nowhere fast.'),
      h('Daily backups', 'An online SQLite backup runs every day into the data folder; the newest seven are kept.'),
    ],
  },
  {
    n: 7,
    date: '2026-02-12',
    title: 'Tasks',
    highlights: [
      h('A task queue', 'Tasks carry a title, summary, goal, priority and tags, and move through queued, in progress, needs input and done.'),
      h('Signals on tasks', 'Attach the signals a task came from, so anyone reading it sees the evidence.'),
      h('Keyboard-first list', 'Filter by status, priority or tag and page through thousands of tasks without the list slowing down.'),
    ],
  },
  {
    n: 8,
    date: '2026-02-26',
    title: 'The loop',
    highlights: [
      h('AI cycles', 'The loop reads new signals and open tasks, triages what came in, drafts outputs and moves task statuses, on a schedule you set.'),
      h('Built-in local engine', 'Cycles run offline out of the box: deterministic triage and cited drafts, no API key needed.'),
      h('Run now', 'One button (or POST /runs) runs a cycle immediately and shows its run record.'),
      h('Work log', 'Every task the loop touches gets a work-log entry saying what it did and why.'),
    ],
  },
  {
    n: 9,
    date: '2026-03-04',
    title: 'Memory',
    highlights: [
      h('Durable memory', 'Facts, decisions, preferences and lessons the loop should keep, each with an importance from 0 to 10.'),
      h('Retrieval in cycles', 'Each cycle searches memory for the task at hand and cites the entries it used.'),
      h('Notes become preferences', 'A standing note on a task ("always copy the landlord") is turned into a preference memory the next cycle can reuse.'),
    ],
  },
  {
    n: 10,
    date: '2026-03-12',
    title: 'Bring your own model',
    highlights: [
      h('OpenAI-compatible engine', 'Switch the loop to any OpenAI-compatible endpoint: OpenAI itself, Ollama, LM Studio or vLLM on your own hardware.'),
      h('Keys stay out of the database', 'The API key lives in an encrypted secrets file beside the database, never in exports, logs or answers.'),
      h('Test the connection', 'Settings › Engine checks the endpoint and model before the first cycle depends on them.'),
    ],
  },
  {
    n: 11,
    date: '2026-03-15',
    title: 'Comments, mentions and reactions',
    highlights: [
      h('Task comments', 'Discuss a task where it lives; comments are searchable and kept with the task.'),
      h('@mentions', 'Mention a teammate by name and it lands in their mentions list.'),
      h('Reactions', 'A quick emoji on a signal, comment, memory entry or output says "seen" without another comment.'),
    ],
  },
  {
    n: 12,
    date: '2026-03-20',
    title: 'Onboarding templates',
    highlights: [
      h('Start from your industry', 'A first batch of onboarding templates seeds a new desk with the memories and sample signals a business like yours needs on day one.'),
      h('Task templates', 'Save the shape of a recurring task (label, emoji, summary, goal, tags) and create it in one click.'),
      h('Shared saved searches', 'Keep the team’s favourite filters as named searches everyone can open.'),
    ],
  },
  {
    n: 13,
    date: '2026-04-03',
    title: 'Members and invites',
    highlights: [
      h('Invite your team', 'Owners and admins invite people by email with a role; invites can be revoked until they are accepted.'),
      h('Roles that mean something', 'Invite people as admins, editors or viewers; the owner can never be removed.'),
      h('Acting as a member', 'Scripts can act on behalf of a member, and the activity log names who did what.'),
    ],
  },
  {
    n: 14,
    date: '2026-04-10',
    title: 'The review queue',
    highlights: [
      h('Nothing ships unseen', 'Outputs the loop drafts wait in one queue for a human to approve or archive.'),
      h('Watch and overdue hours', 'Set how long an output may wait before it is flagged, and when it counts as overdue.'),
      h('Versions and provenance', 'Each output shows the signals and memory it drew on and the version it replaces.'),
    ],
  },
  {
    n: 15,
    date: '2026-04-15',
    title: 'Reviewing faster',
    highlights: [
      h('Keyboard review', 'j and k move through the queue, a approves, e archives and o opens the output; a queue of twenty drafts clears in minutes.'),
      h('Bulk decisions', 'Approve or archive everything waiting in one step when the queue is routine.'),
      h('Reviewer availability', 'Mark a reviewer away; capacity guidance then counts only the reviewers who are available, and nothing is moved behind your back.'),
      h('More templates', 'The onboarding template catalog grows with new industries.'),
    ],
  },
  {
    n: 16,
    date: '2026-04-21',
    title: 'Cost accounting',
    highlights: [
      h('Tokens counted, cost priced', 'Every cycle’s tokens are counted and priced per model, and charged to the tasks that used them.'),
      h('Daily cost cap', 'Set a daily spend cap; once today’s spend reaches it, scheduled cycles are skipped and Run now says why.'),
      h('Cost in micro-dollars', 'Costs are stored as integers, so small cycles add up exactly.'),
    ],
  },
  {
    n: 17,
    date: '2026-04-30',
    title: 'Where the money goes',
    highlights: [
      h('Cost breakdowns', 'See today’s spend by assignee, source and tag, with the tasks that cost the most.'),
      h('Trajectories', 'Per-day cost lines for any tag, source, task or assignee show whether spend is drifting.'),
      h('Memory cost', 'Each memory entry shows how often cycles retrieved it and what share of their cost it carried.'),
    ],
  },
  {
    n: 18,
    date: '2026-05-09',
    title: 'Cost guardrails',
    highlights: [
      h('Spike detector', 'A task, tag or source whose cost jumps well above its baseline is flagged after the cycle that caused it.'),
      h('Pause what spikes', 'Choose what a spike does: notify only, or rank the spiking work last until someone acknowledges it.'),
      h('Chronic spikes', 'A source that spikes day after day is called out so you can filter it at the source.'),
    ],
  },
  {
    n: 19,
    date: '2026-05-15',
    title: 'Keeping the desk tidy',
    highlights: [
      h('Stale tasks', 'Tasks untouched past a threshold are listed, renewable with a note, and archived automatically if you choose.'),
      h('Stale memory', 'Memory nobody retrieves fades into a review list; entries with importance >= 9 are never swept.'),
      h('Auto-archive log', 'Everything the sweeps archived is listed, so nothing disappears silently.'),
    ],
  },
  {
    n: 20,
    date: '2026-05-22',
    title: 'Outbound webhooks',
    highlights: [
      h('Subscribe to events', 'Send task, output, memory and cost events to any HTTPS endpoint you own.'),
      h('Signed deliveries', 'Every delivery is signed the Standard Webhooks way; the secret is shown once when you subscribe.'),
      h('Transactional outbox', 'Events are written in the same transaction as the change, so a delivery never announces something that did not happen.'),
      h('Event catalog', 'GET /api/v1/events lists every event with its payload and an example, so a receiver can be written before the first delivery.'),
    ],
  },
  {
    n: 21,
    date: '2026-05-28',
    title: 'Deliveries you can trust',
    highlights: [
      h('Retries with backoff', 'Failed deliveries are retried on a schedule; each attempt is recorded with its status and timing.'),
      h('Retry by hand', 'Retry a delivery from the delivery log once the receiver is fixed, or send a test event before real ones arrive.'),
      h('Auto-disable', 'An endpoint that answers 410 Gone, or keeps failing, is disabled with the reason instead of piling up retries.'),
    ],
  },
  {
    n: 22,
    date: '2026-06-11',
    title: 'Home',
    highlights: [
      h('One page for the morning', 'Home shows what came in, what the loop drafted, what waits for review and what it cost, each against its baseline.'),
      h('What’s new since your last visit', 'A short list of what changed while you were away, without scrolling the activity log.'),
    ],
  },
  {
    n: 23,
    date: '2026-06-20',
    title: 'Your inbox and insights',
    highlights: [
      h('Personal inbox', 'Mentions, assignments and reviews waiting on you, acknowledged one by one or all at once.'),
      h('Insights', 'Which tags produce the most work and the most approvals, over the weeks you choose.'),
      h('Reactions summary', 'The most-reacted signals and outputs of the week at a glance.'),
    ],
  },
  {
    n: 24,
    date: '2026-06-25',
    title: 'Exports',
    highlights: [
      h('CSV and JSON', 'Export sources, activity, outputs, decisions, memory and cost as CSV or JSON with spreadsheet-safe cells, or the whole desk as one JSON file.'),
      h('Stale-task export', 'Hand the list of neglected tasks to whoever needs to decide on them.'),
    ],
  },
  {
    n: 25,
    date: '2026-06-28',
    title: 'Import',
    highlights: [
      h('Move a desk in', 'Import memory, signals and sources from a Desk JSON export; they are added to what you have, never overwriting it.'),
      h('Pick what comes', 'Choose which of the three the import brings, so a fresh desk can take another one’s memory alone.'),
    ],
  },
  {
    n: 26,
    date: '2026-07-04',
    title: 'Search everything',
    highlights: [
      h('One search box', 'Keyword search across signals, tasks, outputs, memory, comments, the activity log and sources, best match first.'),
      h('Search as you type', 'The last word matches as a prefix, so results follow the text as it is typed.'),
      h('Always in step', 'The index is updated in the same transaction as every write; there is no reindex to wait for.'),
    ],
  },
  {
    n: 27,
    date: '2026-07-11',
    title: 'Tags across the desk',
    highlights: [
      h('Tag search', 'Everything carrying a tag (tasks, outputs, memory) in one list, with counts per kind.'),
      h('Rename and merge', 'Rename a tag everywhere in one step; rows that already carry the new name keep it once.'),
    ],
  },
  {
    n: 28,
    date: '2026-07-13',
    title: 'Share a task',
    highlights: [
      h('Share links', 'Share a task’s work log or timeline with a client through an unguessable, revocable link.'),
      h('View counts', 'See how often a shared page was opened.'),
    ],
  },
  {
    n: 29,
    date: '2026-07-15',
    title: 'A responsive desk during cycles',
    highlights: [
      h('Cycles in a worker thread', 'Loop cycles now run off the API’s thread, so the UI stays quick while a large cycle works.'),
      h('Crash-safe cycles', 'A cycle that stops mid-way rolls back whole and its run is marked failed with the reason.'),
    ],
  },
  {
    n: 30,
    date: '2026-07-18',
    title: 'Faster writes',
    highlights: [
      h('Group commit', 'Writes that arrive together share one durable commit, so a burst of webhook signals lands in a fraction of the time.'),
      h('Template catalog update', 'More onboarding templates for the industries operators asked for.'),
    ],
  },
  {
    n: 31,
    date: '2026-07-23',
    title: 'The daily digest',
    highlights: [
      h('A daily email', 'A digest for owners and admins of what came in, what waits for approval and what it cost, sent through your own SMTP server; it goes out whenever approvals are waiting.'),
      h('No server? No problem', 'Without SMTP settings, each digest is written to the outbox folder as an .eml file you can open.'),
    ],
  },
  {
    n: 32,
    date: '2026-07-26',
    title: 'Digest preferences',
    highlights: [
      h('Your own sections', 'Each recipient picks the personal sections their digest carries.'),
      h('Quiet weekends and quiet hours', 'Mute the digest on weekends or during set hours, in the workspace’s timezone.'),
      h('Preview and audit', 'Preview a digest as a recipient would get it, and see why each one was sent or muted.'),
    ],
  },
  {
    n: 33,
    date: '2026-07-29',
    title: 'Dashboard preferences',
    highlights: [
      h('Arrange your panels', 'Collapse and reorder panels, choose the cost columns you care about and how active work is sorted; saved per member.'),
      h('Density', 'A compact layout for big screens and busy queues, and one click to reset everything to the defaults.'),
    ],
  },
  {
    n: 34,
    date: '2026-08-07',
    title: 'Focus',
    highlights: [
      h('Focus tags', 'Tell the loop what matters this week; focus-tagged tasks are worked first.'),
      h('Focus history', 'Every focus shift is kept, so you can see what the desk was pointed at and when.'),
    ],
  },
  {
    n: 35,
    date: '2026-08-12',
    title: 'Scheduling the loop',
    highlights: [
      h('Scheduled pauses', 'Pause the loop until a date and time, for a closed week or a migration, and it resumes on its own.'),
      h('Plan floors', 'Each plan sets the shortest loop interval; settings below it are raised and say so.'),
      h('Run now waits politely', 'Run now during a scheduled look waits for it instead of refusing.'),
    ],
  },
  {
    n: 36,
    date: '2026-08-19',
    title: 'Quiet sources and the tray',
    highlights: [
      h('Quiet sources', 'A feed that polls fine but has brought no signal for 14 days (or twice its interval, if longer) is called out, and can be acknowledged for a week.'),
      h('Tray notifications', 'The desktop tray counts outputs waiting past watch and notifies once when one turns overdue.'),
      h('New templates', 'The onboarding catalog adds templates for more service businesses.'),
    ],
  },
  {
    n: 37,
    date: '2026-08-24',
    title: 'A public changelog',
    highlights: [
      h('This page', 'Every release is published as data at /api/v1/changelog and as readable pages at /changelog.'),
      h('Cacheable public endpoints', 'Public content answers with a shared Cache-Control policy so it can sit behind any CDN.'),
    ],
  },
  {
    n: 38,
    date: '2026-09-07',
    title: 'The Desk blog',
    highlights: [
      h('Field notes', 'Articles on running an AI desk well: cost caps, memory that helps, reviewing drafts quickly, case studies by industry.'),
      h('Tags and authors', 'Browse posts by tag or author, with related posts chosen by shared tags.'),
    ],
  },
  {
    n: 39,
    date: '2026-09-14',
    title: 'Public roadmap',
    highlights: [
      h('See what is next', 'The roadmap lists what we are building, grouped into phases with their status.'),
      h('Vote', 'Upvote the items you need; trends show what is gaining support this week.'),
    ],
  },
  {
    n: 40,
    date: '2026-09-21',
    title: 'Integrations and pricing pages',
    highlights: [
      h('Integrations catalog', 'Every way data gets into and out of Desk (feeds, webhooks, relay, exports, the API) in one list.'),
      h('Plain pricing', 'Free, Pro at $29 and Team at $79 a month, with the caps of each plan spelled out; no credits, no per-token billing.'),
    ],
  },
  {
    n: 41,
    date: '2026-09-30',
    title: 'Health badge',
    highlights: [
      h('A badge for your README', 'Show the desk’s health score as an SVG badge.'),
      h('A token just for the badge', 'The badge uses its own read-only, rotatable token, so the workspace token never ends up in a public file.'),
    ],
  },
  {
    n: 42,
    date: '2026-10-07',
    title: 'Finding the right template',
    highlights: [
      h('Template search', 'Search templates by name, memories and sample signals to find the closest fit for your business.'),
      h('Template stats', 'See how many memories and sample signals each industry category carries.'),
      h('New this release', 'Recently launched templates are listed first on the templates page.'),
    ],
  },
  {
    n: 43,
    date: '2026-10-21',
    title: 'Memory that earns its place',
    highlights: [
      h('Top retrieved memory', 'The entries cycles rely on most, with their retrieval trajectories over the last weeks.'),
      h('Top cost memory', 'The entries that carry the most cost, to trim or split.'),
      h('Bulk memory actions', 'Pin, tag, untag or delete a selection of entries at once.'),
    ],
  },
  {
    n: 44,
    date: '2026-10-27',
    title: 'Release cadence',
    highlights: [
      h('Cadence and peak week', 'The changelog API answers per-day and per-week release counts, the busiest week and the trend of the last four weeks.'),
      h('Changelog since a rev', 'Ask for the releases newer than the one you run to see what an upgrade brings.'),
    ],
  },
  {
    n: 45,
    date: '2026-10-30',
    title: 'Onboarding, applied',
    highlights: [
      h('Apply a template', 'The onboarding flow applies a template’s memories and sample signals to a fresh desk in one step.'),
      h('Review before applying', 'See every memory and signal a template will add before you confirm.'),
    ],
  },
  {
    n: 46,
    date: '2026-11-06',
    title: 'Reviews as a handoff',
    highlights: [
      h('Review owners', 'Each waiting output names its review owner, the assignee of the task it came from, with that person’s load.'),
      h('Throughput', 'See how many outputs were decided each day and how long they waited, to size the team’s review time.'),
    ],
  },
  {
    n: 47,
    date: '2026-11-20',
    title: 'Templates and their releases',
    highlights: [
      h('Launch history', 'Each template shows the release it launched in and that release’s date.'),
      h('Recent launches', 'The newest templates come first, across the catalog and within each of the ten industry categories.'),
    ],
  },
  {
    n: 48,
    date: '2026-11-23',
    title: 'Polish for the public site',
    highlights: [
      h('Readable pages', 'Templates, changelog, blog, roadmap, integrations and pricing share one light, script-free layout.'),
      h('Canonical links', 'Every public page and row carries its canonical address, ready to share.'),
      h('Fewer surprises', 'Bad input on every public endpoint is answered with a clear 422 naming the field.'),
      h('More templates', 'The latest onboarding templates join the catalog.'),
    ],
  },
];

/** The date of a release by its label (`rev 12`), or null when no release has it: for the templates' launchDate. */
export function releaseDateOf(rev: string): string | null {
  const match = /^rev (\d+)$/.exec(rev);
  return match === null ? null : (RELEASES.find((r) => r.n === Number(match[1]))?.date ?? null);
}
