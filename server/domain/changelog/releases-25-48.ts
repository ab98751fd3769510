import type { ReleaseHighlight, ReleaseRecord } from './releases';

const h = (label: string, description: string): ReleaseHighlight => ({ label, description });

/** Revs 25-48: from import to the public site. */
export const RELEASES_25_48: ReleaseRecord[] = [
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
