import type { BlogPostRecord } from '../content-types';

/** Later posts: cost spikes, the cycle worker and onboarding templates. */
export const underTheHoodPosts: BlogPostRecord[] = [
  {
    slug: 'reading-a-cost-spike',
    title: 'Reading a cost spike',
    date: '2026-11-03',
    excerpt: 'The spike detector flagged a tag at four times its baseline. Where the money went, how cost is split across tasks, sources and memory, and what to do next.',
    tags: ['cost', 'Guardrails', 'Spike detector'],
    authorSlug: 'tomas-okafor',
    categorySlug: 'operating',
    bodyHtml: `<p>A cost spike notice says that some part of your desk cost much more than usual. It does not say why. This post walks through how Desk attributes cost, so that when a spike arrives you can read it like a receipt instead of guessing.</p>
<h2>Where cost comes from</h2>
<p>Every cycle sends prompts to the engine and gets answers back. Desk counts the tokens of both and prices them for the model in use. The cycle's total is then attributed: each task worked in the cycle is charged its share of the tokens, in proportion to the part of the prompt that was about it. Triage of new signals is charged to the workspace as a whole.</p>
<h2>One amount, several views</h2>
<p>A task's charge is then spread into the other views, each with integer splits that add up exactly:</p>
<ul>
<li><strong>Sources</strong> share the charge equally across the distinct sources of the task's signals.</li>
<li><strong>Memory</strong> entries share it equally across the distinct entries the task's retrievals returned.</li>
<li><strong>Tags</strong> each carry the full amount, because a task tagged "refunds" and "urgent" really did cost that much for both topics. Untagged work appears as <code>untagged</code>.</li>
<li><strong>Assignees</strong> carry the amount of the tasks assigned to them, with unassigned work shown on its own.</li>
</ul>
<p>All of this is stored as daily rows per workspace day, so trajectories over weeks read a handful of rows instead of every cycle ever run.</p>
<h2>How the detector decides</h2>
<p>For each task, tag and source the detector keeps a baseline of recent daily cost. After each cycle it compares today against that baseline; a value well above it, and above a minimum amount so that a jump from one cent to four is not news, is flagged. A source that spikes day after day is marked as chronic, which usually means a filter is missing rather than that something unusual happened.</p>
<h2>Reading the notice</h2>
<p>Start from what was flagged and move one view at a time:</p>
<ul>
<li>A <strong>source</strong> spike almost always means more signals. Check the source's count for today against last week.</li>
<li>A <strong>tag</strong> spike with a normal signal volume usually means one or two expensive tasks. Open the tag's cost trajectory and the top cost tasks list.</li>
<li>A <strong>task</strong> spike often means a task with a very long history or many attached signals is being worked every cycle. Split it, or archive the signals it no longer needs.</li>
</ul>
<p>Memory cost is the quiet one. An entry retrieved by every task carries a share of every cycle. If one entry sits at the top of the memory cost list, it is probably too long or too general.</p>
<h2>Pause or notify</h2>
<p>Each spike can either only notify or also rank the spiking work last in the cycle order until someone acknowledges it. Ranking last is gentle: the work still happens when there is budget left, but it can no longer crowd out everything else on a busy day. Acknowledge once you understand the cause, and the work returns to its normal place.</p>
<p>A spike is information, not an emergency. With the views above, most can be explained in five minutes.</p>`,
  },
  {
    slug: 'keeping-the-api-quick-while-the-loop-works',
    title: 'Keeping the API quick while the loop works',
    date: '2026-11-10',
    excerpt: 'A large cycle used to make the UI stutter. Why slicing work on one thread was not enough, and how cycles moved to a worker thread with their own connection.',
    tags: ['Architecture', 'SQLite', 'Performance', 'Loop'],
    authorSlug: 'tomas-okafor',
    categorySlug: 'engineering',
    bodyHtml: `<p>Early versions of Desk ran each loop cycle on the same thread that answered the API. For small desks nobody noticed. For a desk with a thousand new signals and five thousand memory entries, the UI stuttered for the second or so a cycle took: lists paused, clicks lagged, and the tray's counts froze.</p>
<h2>First attempt: slicing</h2>
<p>Node runs JavaScript on one thread, so long work has to yield to let requests through. We sliced the cycle: every few milliseconds it paused to let the event loop answer pending requests, then continued. It helped, but not enough. Some steps cannot be sliced: a single full-text search over memory, the synchronous parts of writing the cycle's results, and the commit itself, which waits for the disk to confirm the write. Each of those holds the thread in one piece, and together they pushed the slowest requests from a few milliseconds to around fifty.</p>
<h2>Second attempt: a worker thread</h2>
<p>Now each cycle runs in a worker thread with its own connection to the same database file. The API's thread only sends the worker a message describing the cycle and receives a message when it is done. Gathering input, running the engine, searching memory and writing the results all happen in the worker.</p>
<p>Two connections writing one SQLite file need care:</p>
<ul>
<li>Every transaction begins immediately as a writer, so a transaction that read earlier can never fail at its first write because the other connection committed meanwhile.</li>
<li>The worker holds the write lock only for the short apply step and its commit. Gathering and engine calls happen outside any transaction, so the API's writes are almost never kept waiting.</li>
<li>When the worker is about to write, it raises a shared flag; a write on the API's side waits for the flag asynchronously, without blocking the thread, so reads keep being answered.</li>
</ul>
<h2>Keeping caches honest</h2>
<p>The API's thread keeps a couple of small values in memory, such as the workspace row read on every request. When the worker writes, its answer lists the tables it touched, and the API's thread drops any cached value from those tables before anyone sees the answer. If the worker dies, everything cached is dropped, because it may have committed before dying.</p>
<h2>The result</h2>
<p>On our small build machine, the slowest workspace requests during a large cycle now stay close to their idle values, instead of ten times slower. A cycle over a thousand signals finishes in well under a second. Writes made through the API during a cycle wait at most for the worker's apply and commit, tens of milliseconds.</p>
<h2>Crash safety comes along</h2>
<p>A cycle that fails inside the worker rolls back as a whole and its run record says why. If the worker itself stops mid-cycle, its open transaction rolls back with its connection, and the desk marks the run as interrupted. The next cycle starts a fresh worker.</p>
<p>Users never see any of this, which is the point: the loop works in the background, and the desk stays quick in the foreground.</p>`,
  },
  {
    slug: 'starting-a-desk-from-a-template',
    title: 'Starting a desk from a template',
    date: '2026-11-17',
    excerpt: 'An empty desk knows nothing about your business. Onboarding templates seed the memories and sample signals of your industry; here is how to choose one and make it yours.',
    tags: ['Templates', 'Onboarding', 'Memory'],
    authorSlug: 'maren-lindqvist',
    categorySlug: 'product',
    bodyHtml: `<p>The hardest moment for a new desk is the first hour. The loop is ready, the sources are connected, and the desk knows nothing: not your returns policy, not your opening hours, not which suppliers are always late. Onboarding templates exist to fill that hour with something better than a blank page.</p>
<h2>What a template holds</h2>
<p>Each template is written for one kind of business, in one of ten industry categories, from retail and e-commerce to specialty manufacturing. It carries two things:</p>
<ul>
<li><strong>Memories</strong>: the facts, decisions, preferences and lessons a business like yours tends to need from day one, each with an importance. Regulatory rules come in at the top of the scale so they are never swept as stale.</li>
<li><strong>Sample signals</strong>: what your sources will typically bring, from a supplier delay to a one-star review, so you can see how the desk triages them before your real sources are flowing.</li>
</ul>
<h2>Choosing one</h2>
<p>Browse the templates by category, or search: the search looks through names, descriptions, memories and sample signals, so a query like "allergen" or "deposit" finds the templates that deal with it even when the name does not say so. Every template has its own page listing everything it would add. Pick the one closest to how you work, not the one with the most entries.</p>
<h2>Applying it</h2>
<p>In the onboarding flow, choose the template and review what it will add. Applying it writes its memories and signals to your workspace in one step, each recorded in the activity log like any other change. Nothing is hidden: the entries are ordinary memory and signals, which you can edit, archive or delete like anything you wrote yourself.</p>
<h2>Make it yours in the first week</h2>
<p>A template is a starting point written by someone who does not know your business. Spend twenty minutes on these steps:</p>
<ul>
<li>Replace every number with yours: thresholds, time windows, prices, lead times.</li>
<li>Delete what does not apply. An entry about online ordering in a shop that does not offer it will only confuse drafts.</li>
<li>Add the rules only you know, especially the "never" rules.</li>
<li>Archive the sample signals once your real sources are bringing their own.</li>
</ul>
<h2>Watch what gets used</h2>
<p>After a couple of weeks, open the memory page and sort by retrievals. Template entries that cycles keep retrieving are doing their job. Those never retrieved are candidates for rewording or removal. The usage numbers tell you which parts of the template fit your business and which were someone else's.</p>
<p>The catalog grows with almost every release; the changelog lists which templates launched when. If your industry is missing, tell us on the roadmap: the most requested categories are the ones we write next.</p>`,
  },
];
