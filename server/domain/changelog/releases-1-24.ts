import type { ReleaseHighlight, ReleaseRecord } from './releases';

const h = (label: string, description: string): ReleaseHighlight => ({ label, description });

/** Revs 1-24: from the first desk to exports. */
export const RELEASES_1_24: ReleaseRecord[] = [
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
];
