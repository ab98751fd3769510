import type { BlogPostRecord } from '../content-types';

/** Posts about the desk's edges: outbound webhooks, the relay and feeds. */
export const integrationPosts: BlogPostRecord[] = [
  {
    slug: 'outbound-webhooks-that-never-lie',
    title: 'Outbound webhooks that never lie',
    date: '2026-10-02',
    excerpt: 'An event that announces a change which was then rolled back is worse than no event. How Desk writes events in the same transaction as the change, and delivers them after.',
    tags: ['Webhooks', 'Architecture', 'Integrations'],
    authorSlug: 'jonah-weiss',
    categorySlug: 'engineering',
    bodyHtml: `<p>Outbound webhooks let other systems follow what happens on your desk: a task created, an output approved, a memory entry changed, a cost cap reached. They sound simple. The hard part is making sure every event describes something that really happened, exactly once, in the right order.</p>
<h2>The trap: sending before committing</h2>
<p>The naive design sends the webhook from the code that makes the change. If the HTTP call happens before the database commits and the commit then fails, the receiver has heard about a task that does not exist. If the call happens after the commit and the process dies in between, the receiver never hears about a task that does. Both happen in real life, usually on the worst day.</p>
<h2>The outbox</h2>
<p>Desk writes each event into an outbox table in the same transaction as the change and its activity row. Either all three are stored or none are. Delivery is a separate job that reads the outbox after commit, fans each event out to the subscriptions that want it, and records one delivery per subscription. A crash between commit and delivery only delays the webhook; it never loses or invents one.</p>
<h2>Signed the standard way</h2>
<p>Every delivery is signed following the Standard Webhooks conventions: an id, a timestamp and a signature over both and the body, with the subscription's secret. The secret is shown once, when you create the subscription, and never again. Receivers can verify with any Standard Webhooks library in a few lines, and reject replays by checking the timestamp.</p>
<h2>Retries, with a memory</h2>
<p>A receiver that answers with an error or times out gets the delivery again later, with growing gaps between attempts. Each attempt is recorded with its status, timing and a short excerpt of the answer, so when someone asks "did you send it?" the delivery log answers. Once you fix a receiver, you can retry a delivery by hand from the log, and a test send checks a new endpoint before real events depend on it.</p>
<p>An endpoint that keeps failing is eventually disabled with a reason, instead of collecting retries forever; one that answers 410 Gone is disabled at once, because the receiver said it is gone for good. Resuming a subscription is one click.</p>
<h2>What to subscribe to</h2>
<p>Start narrow. Most operators begin with two subscriptions:</p>
<ul>
<li><strong>Approved outputs</strong> to the system that acts on them: a help desk, a CRM, a chat channel.</li>
<li><strong>Cost events</strong> to wherever you will actually see them, so a cap reached on a Saturday does not wait until Monday.</li>
</ul>
<p>Every event type is listed with its payload and an example in the API's event catalog, so you can write the receiver before the first real event arrives.</p>
<p>The rule behind all of it is short: the database is the truth, and webhooks are its echo. An echo may arrive late; it must never say something the truth did not.</p>`,
  },
  {
    slug: 'webhooks-to-a-laptop-the-relay',
    title: 'Getting webhooks to a laptop: the relay',
    date: '2026-10-09',
    excerpt: 'Your desk has no public address, yet your shop platform wants to post webhooks to it. How the relay closes that gap without opening a port.',
    tags: ['webhooks', 'Relay', 'Integrations', 'Local-first', 'Sources'],
    authorSlug: 'jonah-weiss',
    categorySlug: 'engineering',
    bodyHtml: `<p>Feeds are easy for a local desk: it reaches out, asks for new items, and gets an answer. Webhooks are the opposite. Your order system, payment provider or form builder wants to call you when something happens, and a laptop behind a home router has no address the internet can call.</p>
<h2>Three options we rejected</h2>
<ul>
<li><strong>Opening a port on the router</strong> works until the router resets, the ISP changes your address, or you take the laptop to a café. It also exposes the desk's API to the internet.</li>
<li><strong>A hosted Desk endpoint that stores events</strong> would put your business data on our servers, which is the one thing we promised not to do.</li>
<li><strong>Polling every provider's API</strong> is slow, burns rate limits and needs a separate integration for each service.</li>
</ul>
<h2>How the relay works</h2>
<p>A relay is a small service that holds a channel open. The desk connects out to the channel, exactly like a browser connects to a website, so no port is opened and no address is needed. When a provider posts a webhook to the channel's public URL, the relay passes the request down the open connection. The desk receives it and hands it to the signal service in-process: the same checks, idempotency and limits as a direct call to the inbound webhook, but without ever exposing the desk's own HTTP server.</p>
<p>Desk speaks the protocol of smee-compatible relays, so you can run your own relay on a small server you control, or use one you already trust. You set the relay URL in Settings › Integrations; until you do, nothing is relayed.</p>
<h2>Scoped ingest URLs</h2>
<p>A webhook URL ends up in the settings page of a third-party service, where other people can see it. That is why Desk lets you create scoped ingest URLs: each one can only push signals into one source, carries its own token, and can be revoked without touching the workspace token. Give your shop platform one URL and your form builder another; if one leaks, revoke it and nothing else changes.</p>
<h2>Duplicates and retries</h2>
<p>Providers retry webhooks when they do not get a quick answer, and relays can deliver the same request twice after a reconnect. Send an idempotency key (most providers include a delivery id you can use) and Desk answers a repeat with the first response instead of recording the signal twice. Failed token attempts count against a per-address rate limit, so a guessed URL gets nowhere.</p>
<h2>When the laptop is closed</h2>
<p>If the desk is offline, deliveries wait on the provider's side and are retried by it, as they would be for any unreachable server. Most providers retry for hours or days. For anything that must never be missed, pair the webhook with a feed or a periodic file import from the same system, and let idempotency sort out the overlap.</p>
<p>The relay keeps the desk local and still lets the world knock on its door.</p>`,
  },
  {
    slug: 'feeds-worth-following',
    title: 'Feeds worth following, and how to filter them',
    date: '2026-10-29',
    excerpt: 'A desk is only as good as what comes in. Choosing sources, setting cadences and writing keyword filters that keep the signal and drop the noise.',
    tags: ['Sources', 'Feeds', 'Operating'],
    authorSlug: 'jonah-weiss',
    categorySlug: 'operating',
    bodyHtml: `<p>Every signal that reaches your desk costs a little attention and, once the loop triages it, a little money. A good source list is short, specific and filtered. A bad one is every industry newsletter you ever subscribed to, polled every five minutes.</p>
<h2>Start with the sources you already read</h2>
<p>Before adding anything new, list what you check by hand today: your review platform's notifications, a supplier's price list page, the trade body's news, a competitor's changelog. Most of these offer RSS, Atom or JSON Feed, even when the link is hidden in a page footer. Paste the address into the source preview: it tells you whether it is a feed at all, how many items it holds, and what the newest ones look like, before anything is saved.</p>
<h2>Match the cadence to the source</h2>
<p>Each source has its own poll interval. A regulator's announcements change a few times a month; polling them daily is plenty. A marketplace's seller notices can matter within the hour. Slower cadences cost nothing in accuracy for slow sources, and they keep the loop's input calm. When a source is quiet for weeks, ask whether it belongs on the desk at all.</p>
<h2>Filters that work</h2>
<p>Include and exclude keywords are matched against each item's title and text. Two patterns cover most needs:</p>
<ul>
<li><strong>Include the nouns of your business.</strong> For a bakery following a food-safety feed: allergen, labelling, flour, recall. Items without any of them are dropped before they become signals.</li>
<li><strong>Exclude the recurring noise.</strong> Webinar announcements, job postings and sponsored posts have telltale words; exclude them once and never see them again.</li>
</ul>
<p>Filters are cheap to change. Start strict, look at what the preview would have dropped, and loosen if something important went missing.</p>
<h2>Pause instead of delete</h2>
<p>During a holiday, a product launch or a migration, pause sources instead of deleting them. Their settings, filters and history stay; resume them with one click, or in bulk from the sources page. Poll now fetches one immediately when you know something just changed.</p>
<h2>Watch source health</h2>
<p>The sources page shows each source's last poll, last error and how many signals it brought this week. A feed that starts failing is usually a moved address; a feed that suddenly brings ten times its usual volume is usually a change on the publisher's side. If the spike detector flags a source, check its filters first: one missing exclude can double a day's cost.</p>
<h2>Files and webhooks complete the picture</h2>
<p>Not everything has a feed. Exports from your shop system can be imported as a file source, and anything that can send a webhook can push signals directly. The best desks combine all three: feeds for the outside world, webhooks for your own systems, files for the rest.</p>
<p>Fewer, better sources make a calmer desk, cheaper cycles and drafts that are about what matters.</p>`,
  },
];
