import type { BlogPostRecord } from '../content-types';

/** Posts of the first weeks of the blog: caps, memory, reviewing and local-first. */
export const operatingBasicsPosts: BlogPostRecord[] = [
  {
    slug: 'setting-a-daily-cost-cap',
    title: 'Setting a daily cost cap you will not regret',
    date: '2026-09-08',
    excerpt: 'A cap is not a budget. How to pick the number, what happens when the desk reaches it, and why the first week tells you more than any estimate.',
    tags: ['Cost', 'Guardrails', 'Operating'],
    authorSlug: 'maren-lindqvist',
    categorySlug: 'operating',
    bodyHtml: `<p>Every new desk starts with a daily cost cap: 50 cents on the free plan, 5 dollars on Pro, 20 dollars on Team. Most operators leave it there for a week and then either forget it or raise it in a hurry the first time the loop stops. Both are mistakes, and both are easy to avoid once you see what the cap actually does.</p>
<h2>What the cap does, exactly</h2>
<p>Before each cycle starts, Desk adds up what the workspace has spent today, in the workspace's own timezone. If that total has reached the cap, a scheduled cycle is skipped and recorded as skipped with the reason <code>cost_cap_reached</code>. Run now answers with a clear refusal instead of running. Nothing already under way is cut off halfway: a cycle that started below the cap finishes and is charged in full. The next morning, the count starts again from zero.</p>
<p>That means the cap is a ceiling on a bad day, not a budget you spend down. On a normal day you should never see it.</p>
<h2>Pick the number from a week of data</h2>
<p>The first week with the local engine costs nothing, because the built-in engine runs offline. The moment you switch to an OpenAI-compatible provider, every cycle's tokens are counted and priced, and the cost pages start to fill. After five working days, open the cost trajectory for the workspace and look at the highest day, not the average. A good cap is roughly twice that highest day. It leaves room for a busy Monday after a long weekend, and it still stops a runaway feed before it becomes a story you tell at dinner.</p>
<h2>When the desk reaches the cap</h2>
<p>The first time a day's spend reaches the cap, Desk writes one activity row and one <code>cost.cap_reached</code> event for that day. If you subscribed an outbound webhook to cost events, that is the one to route to your phone. Then ask three questions, in order:</p>
<ul>
<li><strong>Did more come in?</strong> A source that suddenly brings ten times its usual signals is the most common cause. Check the sources page for this week's counts.</li>
<li><strong>Did one task eat the day?</strong> The top cost tasks list answers that in one glance. A task with a long attached history can be expensive every cycle it is worked.</li>
<li><strong>Did the model change?</strong> A switch to a larger model shows up as the same number of tokens at a higher price.</li>
</ul>
<p>Only when all three answers are "no, this is just a busier business now" should you raise the cap. Raise it by a step, not to the plan's maximum.</p>
<h2>Caps and the spike detector work together</h2>
<p>The cap stops the whole desk; the spike detector is finer. It flags a single task, tag or source whose cost jumps well above its own baseline, and can rank that work last until someone looks. With both in place, a bad feed gets noticed by the detector long before the cap has to stop everything else.</p>
<p>Set the cap once with real numbers, let the detector catch the surprises, and review both every month. That is the whole routine, and it takes ten minutes.</p>`,
  },
  {
    slug: 'writing-memory-that-helps',
    title: 'Writing memory that actually helps the loop',
    date: '2026-09-15',
    excerpt: 'Memory entries are the difference between a desk that knows your business and one that guesses. Five rules for entries the loop retrieves and uses.',
    tags: ['Memory', 'Operating', 'Prompting', 'Loop'],
    authorSlug: 'priya-raman',
    categorySlug: 'operating',
    bodyHtml: `<p>When an operator tells me their desk "does not get it", I ask to see their memory page. Nine times out of ten it holds either nothing or a pasted handbook of forty pages split into arbitrary chunks. Neither helps. The loop searches memory for each task it works, and it can only use what it can find and what is written to be used.</p>
<h2>One entry, one thing</h2>
<p>An entry should say one fact, decision, preference or lesson, and say it completely. "Refunds" is not an entry. "Refunds over 150 dollars need the owner's approval; below that, the desk may draft the refund email directly" is an entry. When a cycle retrieves it, the whole rule arrives, not a fragment that needs three other entries to make sense.</p>
<h2>Titles are for searching</h2>
<p>Retrieval weighs the words of the title heavily. Write titles the way a task would describe the situation: "Late delivery complaints" rather than "Policy 4.2". If your customers say "parcel", use "parcel", not "shipment".</p>
<h2>Choose the kind on purpose</h2>
<p>Desk has four kinds of memory, and they read differently to the engine:</p>
<ul>
<li><strong>Facts</strong> describe the world: opening hours, supplier lead times, the name of the insurer.</li>
<li><strong>Decisions</strong> record a choice that was made and why, so the desk does not reopen it every week.</li>
<li><strong>Preferences</strong> describe how you like things done: tone, sign-offs, who gets copied. Standing notes on tasks become preferences automatically.</li>
<li><strong>Lessons</strong> are what went wrong once and must not again.</li>
</ul>
<h2>Importance is a promise, not a ranking</h2>
<p>Importance runs from 0 to 10. Most entries belong between 4 and 7. Reserve 9 and 10 for hard rules: legal, compliance, safety, money that cannot be taken back. Entries at 9 and above are never swept as stale, so if everything is a 9, nothing ever leaves and retrieval gets noisier every month.</p>
<h2>Let usage tell you what to keep</h2>
<p>Every entry shows how often cycles retrieved it and what share of their cost it carried. After a month, sort by retrievals. Entries nobody retrieves are either badly titled or not needed; fix the title once, and archive the entry if it still does not show up. Entries retrieved constantly and carrying a large share of cost are often too long: split them into two or three focused ones.</p>
<h2>Write lessons the day they happen</h2>
<p>The most valuable memory in any desk I have seen is the lesson written within an hour of a mistake. "Never promise same-day delivery on Fridays; the courier's last pickup is 11:00" saves more time than any prompt tweak. Keep a habit: when you archive a draft for a reason the desk could not have known, write that reason down as a lesson before you move on.</p>
<p>Good memory is short, specific, honestly weighted and pruned. It takes a few minutes a day, and the drafts show the difference within a week.</p>`,
  },
  {
    slug: 'reviewing-drafts-fast',
    title: 'Reviewing drafts fast: a keyboard routine',
    date: '2026-09-22',
    excerpt: 'The review queue is where an AI desk earns trust. A ten-minute routine for clearing it every morning without rubber-stamping.',
    tags: ['Review queue', 'Operating', 'Productivity'],
    authorSlug: 'maren-lindqvist',
    categorySlug: 'operating',
    bodyHtml: `<p>Nothing the loop drafts leaves the desk until a person approves it. That rule is the reason operators can let a desk run overnight, and it is also the reason the review queue can become a chore. Here is the routine I use on my own desks, morning and late afternoon, usually in under ten minutes.</p>
<h2>Start from the aggregates strip</h2>
<p>Above the queue sits a strip of counts: waiting, past watch, overdue, the oldest wait, mine and unassigned. Read it before the list. If something is overdue, that comes first, whatever it is. If the oldest wait is under an hour and nothing is past watch, you can take the queue in order.</p>
<h2>Use the keyboard, not the mouse</h2>
<p>The queue is built for the keyboard: <code>j</code> and <code>k</code> move between outputs, <code>a</code> approves, <code>e</code> archives, <code>o</code> opens the output in full and <code>?</code> shows every key. The reading pane shows the draft next to the signals and memory entries it drew on. Keeping your hands on the keys is what turns a queue of twenty drafts into a few minutes of work rather than half an hour of clicking.</p>
<h2>Read the provenance, not just the draft</h2>
<p>A draft can read perfectly and still be wrong because it relied on an outdated memory entry or a misleading signal. Before approving anything that commits you to money, a date or a promise, glance at what it cited. If the desk used a memory entry you no longer agree with, fix the entry right there; every future draft benefits.</p>
<h2>Archive with a reason the desk can learn from</h2>
<p>Archiving a draft says "not this one"; it does not say why. Write the why where the desk will read it: a note on the task, or, when it is a rule, a memory lesson. Write it as an instruction: "Do not offer a discount on orders under 40 dollars" is useful; "wrong" is not. When the same reason comes up twice, it belongs in memory so the third draft never happens.</p>
<h2>Batch the easy ones</h2>
<p>Some days the whole queue is routine: weekly stock summaries, acknowledgements of supplier invoices. Once you have read them, approve everything waiting in one step, or archive it all when a feed brought nothing worth answering. Keep the one-by-one pass for the days that need it.</p>
<h2>Set watch and overdue hours you can keep</h2>
<p>The approval policy has two numbers: after how many hours a waiting output is flagged, and after how many it is overdue. Set them to what your business can honestly sustain. Four and twenty-four work for most shops; a practice that answers clients within the hour might choose one and four. The desktop tray counts outputs past watch and notifies you once when one becomes overdue, so the numbers only work if you respect them.</p>
<h2>Share the load</h2>
<p>Each waiting output names its review owner, the assignee of the task it came from. With more than one reviewer, mark yourself away when you are out: capacity guidance then counts only the people who are available and suggests the lightest-loaded reviewer, so nothing waits on someone who is on a plane. Reviewing becomes a team habit instead of one person's inbox.</p>
<p>Ten minutes twice a day, keyboard only, reasons written as instructions: the queue stays short, and the desk gets better every week.</p>`,
  },
  {
    slug: 'why-desk-is-local-first',
    title: 'Why Desk is local-first',
    date: '2026-09-29',
    excerpt: 'Your desk runs on your machine, in one SQLite file. What that buys you, what it costs us, and how webhooks still reach a laptop.',
    tags: ['Local-first', 'SQLite', 'Architecture'],
    authorSlug: 'tomas-okafor',
    categorySlug: 'engineering',
    bodyHtml: `<p>When people first install Desk they often ask where their data is stored. The answer is always the same: in one SQLite file, in a folder on your own machine, next to a logs folder and a week of backups. There is no Desk cloud holding your signals, tasks or memory. This was the first decision we made, and it shapes almost everything else.</p>
<h2>What local-first buys you</h2>
<ul>
<li><strong>Your business data stays yours.</strong> Customer messages, supplier prices and internal decisions never pass through a service we run. Only what you send to a model provider leaves the machine, and with a local model even that stays home.</li>
<li><strong>It works on a train.</strong> The built-in engine runs offline. Triage, drafting and reviewing all work without a connection; feeds catch up when you are back online.</li>
<li><strong>It is fast.</strong> A request to the desk's API travels through the loopback interface to a database on the same disk. Lists of thousands of tasks come back in a few milliseconds.</li>
<li><strong>It is inspectable.</strong> You can open the database with any SQLite tool, export everything as CSV or JSON, and back it up by copying a folder.</li>
</ul>
<h2>What it costs us</h2>
<p>Local-first is harder to build. A desk on a laptop has no public address, so webhooks cannot reach it directly. The answer is the relay: a channel the desk connects out to, which carries incoming webhook deliveries and hands them to the signal service in-process. You choose the relay; nothing is relayed until you configure one.</p>
<p>It also means we cannot fix your data from our side. Every migration must be safe to run on a database we have never seen, and every write must survive a laptop lid closing halfway. That is why every change, its activity row and its outbound events are written in one transaction, and why the database runs in write-ahead mode with full synchronous commits.</p>
<h2>One process, many ways in</h2>
<p>The same server runs headless with <code>npm start</code>, inside the desktop app, or on a small home server. The desktop window is only a shell around it. Scripts on your machine use the same REST API as the UI, with the same bearer token, which never leaves the machine either.</p>
<h2>Why SQLite</h2>
<p>SQLite is the most widely deployed database in the world for a reason: it is one file, it is transactional, and it is fast enough that the bottleneck is almost always elsewhere. For a single-tenant desk it is exactly right. Full-text search comes from its FTS5 extension, updated in the same transaction as every write, so there is no separate search service to keep in step.</p>
<p>We think software that runs your operations should keep working when the vendor has a bad day. Local-first is how we keep that promise.</p>`,
  },
];
