import type { BlogPostRecord } from '../content-types';

/** Case studies: one business per industry and its first month with a desk. */
export const caseStudyPosts: BlogPostRecord[] = [
  {
    slug: 'case-study-two-person-online-shop',
    title: 'Case study: a two-person online shop',
    date: '2026-10-14',
    excerpt: 'A shop selling hand-dyed yarn moved customer emails, reviews and supplier notices onto one desk. What they set up, what it cost, and what they changed in week three.',
    tags: ['Case study', 'Retail', 'Memory', 'Cost'],
    authorSlug: 'priya-raman',
    categorySlug: 'case-studies',
    bodyHtml: `<p>Ines and her brother run an online shop selling hand-dyed yarn and knitting kits. Two people, about forty orders a week, more before Christmas. Before their desk, Ines spent the first hour of every day reading marketplace messages, review notifications and supplier emails, then writing the same dozen answers she had written the week before.</p>
<h2>Day one</h2>
<p>They started from the retail onboarding template, which seeded memories about returns windows, dispatch cut-off times and how to handle damaged parcels, plus sample signals showing what their sources would bring. They replaced the template's defaults with their own numbers within the hour: returns accepted for 30 days on unused yarn, no returns on kits once opened, dispatch on Tuesdays and Fridays.</p>
<p>Sources came next: the marketplace's notification feed, the review platform's feed filtered to their shop name, and their dye supplier's news page, filtered to "discontinued", "price" and "delay".</p>
<h2>The first week</h2>
<p>The loop drafted replies to order questions, summarised new reviews and flagged a supplier notice about a price increase on undyed merino. Ines reviewed drafts twice a day with the keyboard. She archived about a third of them in the first three days, almost always for the same reason: the desk offered to refund shipping on late parcels, which they never do for international orders.</p>
<h2>Week three: memory, not prompts</h2>
<p>Instead of rewriting instructions, Ines wrote one lesson: "International parcels: we never refund shipping for delays; offer tracking help and a 10 percent code on the next order instead." The share of archived drafts dropped to under one in ten within days. Three more lessons followed, each written right after an archived draft. The memory page now holds 31 entries, and the top five by retrievals cover most of their customer email.</p>
<h2>What it costs</h2>
<p>They run an OpenAI-compatible model and set the daily cap at 2 dollars after a week of data; their busiest day so far cost 1.10. The spike detector fired once, when the review feed briefly returned every review on the marketplace instead of theirs. They added an exclude filter and the next day was back to normal.</p>
<h2>What they would tell another shop</h2>
<ul>
<li>Write down the reason for every archived draft as a lesson. It beats tuning prompts.</li>
<li>Filter review feeds hard. Other shops' reviews are expensive noise.</li>
<li>Keep dispatch days and cut-off times in memory with high importance; customers ask every day.</li>
</ul>
<p>Ines now spends about fifteen minutes on the morning queue instead of an hour on the inbox, and uses the rest of the hour to dye yarn, which is why they started the shop in the first place.</p>`,
  },
  {
    slug: 'case-study-plumbing-and-heating',
    title: 'Case study: a plumbing & heating firm',
    date: '2026-10-20',
    excerpt: 'Six engineers, one office manager, and a winter of boiler breakdowns. How a trades business used the review queue to keep every customer promise checked.',
    tags: ['Case study', 'Trades', 'Review queue', 'Sources'],
    authorSlug: 'priya-raman',
    categorySlug: 'case-studies',
    bodyHtml: `<p>Declan runs a plumbing and heating firm with six engineers and one office manager, Aoife. From October to March the phone does not stop: boiler breakdowns, frozen pipes, landlords who need a gas safety certificate by Friday. The office's problem was never the work itself; it was that promises made on the phone were forgotten by the time the van was booked.</p>
<h2>Setting up</h2>
<p>They chose the trades template and adjusted its memories to their rules: emergency call-outs within four hours for vulnerable customers, a fixed call-out fee quoted before any visit, gas work only by the three engineers on the Gas Safe register. Those three rules went in at importance 9, because getting them wrong has legal consequences.</p>
<p>Their signals come from three places: the web form on their site, pushed through a scoped ingest URL; an export of the booking calendar, imported as a file source every evening; and the manufacturer bulletins of the two boiler brands they service most, filtered to "recall", "safety notice" and "part shortage".</p>
<h2>The review queue as a second pair of eyes</h2>
<p>The loop drafts confirmations, quotes and follow-ups. Nothing goes out without Aoife's approval, and the approval policy is strict: flagged after one hour, overdue after four. In the first month the queue caught two drafts that would have booked a non-registered engineer for gas work, because the desk cited the calendar but not the register. Aoife archived them and wrote the reason into memory as a lesson. It has not happened since.</p>
<h2>Winter peaks</h2>
<p>On the first cold weekend, signals tripled. The daily cost cap held, and the spike detector flagged the web form source rather than stopping the whole desk. Declan raised the cap for the season after looking at the cost trajectory, and set a reminder to lower it again in spring.</p>
<h2>Numbers after two months</h2>
<ul>
<li>Median time from web enquiry to confirmed booking: down from most of a day to under two hours.</li>
<li>Missed follow-ups on quotes: from "we never knew" to none the desk did not flag.</li>
<li>Aoife's review time: about twenty minutes a day, split across the morning and after lunch.</li>
</ul>
<h2>Advice for other trades</h2>
<p>Put certifications and who may do what in memory at high importance. Treat manufacturer bulletins as a source, not an email you might read. And use the review queue's watch hours as your service promise: if a customer should hear back within the hour, make that the number on the desk too.</p>`,
  },
  {
    slug: 'case-study-small-accounting-practice',
    title: 'Case study: a small accounting practice',
    date: '2026-10-26',
    excerpt: 'Deadlines, document chasing and regulations that change every spring. How a four-person practice keeps its desk precise without letting it talk to clients unsupervised.',
    tags: ['Case study', 'Professional services', 'Memory', 'guardrails'],
    authorSlug: 'maren-lindqvist',
    categorySlug: 'case-studies',
    bodyHtml: `<p>Ruth's practice prepares accounts and tax returns for about two hundred sole traders and small companies. Four people, one busy season that never quite ends. Their question before trying Desk was blunt: can an AI desk be trusted anywhere near a tax deadline?</p>
<h2>Guardrails first</h2>
<p>Ruth set up the guardrails before a single source. The review policy made every output wait for a partner's approval, with overdue set at one working day. The daily cost cap went in at a level she would not mind losing on a bad day. And the first memories she wrote were about what the desk must never do: never state a client's tax liability in a draft, never confirm a filing before the partner has submitted it, never give advice on a client's personal situation by email.</p>
<p>Each of those went in at importance 10. They are never swept as stale, and they are retrieved for almost every client-facing task.</p>
<h2>What the desk does</h2>
<p>Most of the practice's week is chasing: bank statements, receipts, payroll reports, signed engagement letters. The desk watches the practice's shared inbox through a webhook from their mail rules and the client portal's notification feed. When a document arrives it is matched to the open task for that client; when one is missing a week before a deadline, the loop drafts a polite, specific reminder naming exactly what is missing.</p>
<p>The tax authority's news feed and two professional bodies' updates are sources too, filtered to the rules that affect their client base. When a threshold changes, the desk opens a task to review which clients it affects.</p>
<h2>Memory as the practice handbook</h2>
<p>The practice had a handbook nobody read. Ruth broke it into 60 short entries: facts (filing deadlines, the portal's upload limits), decisions (no new payroll clients until after January), preferences (formal tone, first names only after the client uses them) and lessons. Entries are titled the way staff talk: "Late bank statements", not "Section 3.4".</p>
<h2>A month in</h2>
<ul>
<li>Reminder drafts approved without edits: about four in five.</li>
<li>Documents outstanding two weeks before deadlines: down by half.</li>
<li>Time spent reviewing: roughly thirty minutes a day across the two partners.</li>
</ul>
<p>Ruth's verdict: the desk is not trusted to decide anything, and it does not need to be. It is trusted to notice, to draft and to remember, and that turns out to be most of the work.</p>
<h2>For other practices</h2>
<p>Write the "never" rules first, at the highest importance. Keep every client-facing output behind review. And let the desk do the chasing: it never gets tired of asking for a bank statement politely.</p>`,
  },
  {
    slug: 'case-study-neighbourhood-cafe',
    title: 'Case study: a neighbourhood café',
    date: '2026-11-20',
    excerpt: 'Supplier price changes, allergen questions and a review that went viral for the wrong reasons. A café owner on starting from a template and trimming it to fit.',
    tags: ['Case study', 'Hospitality', 'Sources', 'Templates'],
    authorSlug: 'priya-raman',
    categorySlug: 'case-studies',
    bodyHtml: `<p>Tobias runs a café with twelve tables, a small kitchen and a weekend brunch that sells out. His days start at six with deliveries and end after the last table is cleaned. Admin happens in the gaps: answering booking requests, replying to reviews, checking supplier price lists, keeping the allergen information current.</p>
<h2>Starting from the template</h2>
<p>He picked the café template from the hospitality category and applied it during onboarding. It seeded memories about allergen labelling duties, booking policies for large groups, how to respond to negative reviews, and supplier lead times, along with sample signals showing what a review alert or a supplier notice would look like on the desk.</p>
<p>Then he trimmed. The template assumed online ordering, which he does not offer; those memories went. He changed the group booking threshold from eight to six, because the room cannot take more, and added his own rule: no bookings at all for Saturday brunch, walk-ins only.</p>
<h2>Sources for a small kitchen</h2>
<ul>
<li>The review platform's feed for the café, every hour.</li>
<li>The booking form on his website, through a scoped ingest URL.</li>
<li>His dairy and bakery suppliers' price and availability pages, daily, filtered to the products he buys.</li>
<li>The food standards agency's allergy alerts, filtered to ingredients on his menu.</li>
</ul>
<h2>The review that went viral</h2>
<p>In week two, a one-star review complaining about the Saturday no-bookings rule was shared widely in a local group. The desk picked it up within the hour, drafted a reply that explained the rule without arguing, and cited the memory entry for it. Tobias softened one sentence and approved it from his phone between orders. The reply was shared more than the review.</p>
<h2>Supplier surprises</h2>
<p>The dairy supplier raised the price of oat milk twice in a month. Each time the desk opened a task with the old and new price and the weekly quantity, so the cost per flat white was obvious. Tobias changed supplier for oat milk and kept the dairy one for everything else.</p>
<h2>What it costs and what it saves</h2>
<p>He runs the Pro plan with a daily cap of 3 dollars and has never reached it. The review queue takes about ten minutes in the afternoon lull. The biggest change, he says, is not time but calm: nothing important waits in an inbox he has not opened.</p>
<h2>Advice for other cafés</h2>
<p>Apply a template, then delete what does not fit before adding anything. Keep allergen rules at the highest importance. And answer reviews from the queue while they are fresh; the desk drafts, you decide.</p>`,
  },
];
