/**
 * GET /integrations: what Desk integrates with today, by axis. Every entry names something this
 * code base does (the module in the comment beside it); `sinceRev` is the release (`rev <n>` of
 * the changelog, server/domain/changelog/releases.ts) whose highlights introduce it. Add an entry
 * when an integration ships, never before.
 */

export const INTEGRATION_AXES = ['Inbound', 'Outbound', 'Programmatic'] as const;
export type IntegrationAxis = (typeof INTEGRATION_AXES)[number];

export interface IntegrationItem {
  key: string;
  name: string;
  detail: string;
  /** How the integration authenticates. */
  auth: string;
  /** The release it first shipped in, `rev <n>`. */
  sinceRev: string;
}

export interface IntegrationGroup {
  axis: IntegrationAxis;
  intro: string;
  /** @isInt */
  count: number;
  items: IntegrationItem[];
}

export interface IntegrationCatalog {
  /** @format date-time */
  generatedAt: string;
  /** Items across all groups. @isInt */
  total: number;
  /** Items per axis. */
  perAxis: { Inbound: number; Outbound: number; Programmatic: number };
  /** Inbound, Outbound, Programmatic, in that order. */
  groups: IntegrationGroup[];
}

const GROUPS: { axis: IntegrationAxis; intro: string; items: IntegrationItem[] }[] = [
  {
    axis: 'Inbound',
    intro: 'How signals reach the desk: pushed by other services, pulled from feeds, or loaded from files.',
    items: [
      // server/api/webhooks (inbound-mount.ts, InboundWebhookController.ts)
      {
        key: 'inbound-webhook',
        name: 'Inbound signal webhook',
        detail: 'POST one signal or a batch of up to 100 as JSON to /api/webhooks/signals/<token>; an Idempotency-Key makes retries safe, and a rejected batch writes nothing.',
        auth: 'Workspace token in the URL path',
        sinceRev: 'rev 2',
      },
      // server/domain/ingest
      {
        key: 'scoped-ingest-urls',
        name: 'Scoped ingest URLs',
        detail: 'A per-source webhook URL that can only add signals to that one source: give it to a form builder or a monitoring tool instead of the workspace token; revoke it on its own.',
        auth: 'Per-source ingest token in the URL path (only its hash is stored)',
        sinceRev: 'rev 6',
      },
      // server/integrations/feeds (fetch-feed.ts, parse-feed.ts)
      {
        key: 'rss-atom-feeds',
        name: 'RSS, Atom and RDF feeds',
        detail: 'Feed sources polled on the workspace cadence or their own interval, with include and exclude keywords, backoff after failures and a warning when a feed goes quiet.',
        auth: 'None: public feed URLs',
        sinceRev: 'rev 3',
      },
      {
        key: 'json-feed',
        name: 'JSON Feed',
        detail: 'JSON Feed 1.0 and 1.1 documents are read like RSS and Atom: each new item becomes a signal, deduplicated across polls.',
        auth: 'None: public feed URLs',
        sinceRev: 'rev 3',
      },
      {
        key: 'review-and-social-feeds',
        name: 'Review-site and LinkedIn feeds',
        detail: 'Source types for the feed exports of review sites and of LinkedIn pages, polled like any feed and labelled so triage knows a review from a post.',
        auth: 'None: the feed URL the site publishes',
        sinceRev: 'rev 3',
      },
      // server/integrations/feeds/file-import.ts
      {
        key: 'file-sources',
        name: 'CSV and JSON files',
        detail: 'A file source imports up to 5000 records from a .csv or .json file on this machine (title, detail, kind, priority, sourceUrl, externalId), again on demand.',
        auth: 'None: a path on this machine',
        sinceRev: 'rev 4',
      },
      // server/integrations/relay
      {
        key: 'relay',
        name: 'Relay for machines behind NAT',
        detail: 'Subscribe to a smee-protocol channel (smee.io or your own server) so senders on the internet reach the webhook of a desk on a laptop or office machine.',
        auth: 'The unguessable channel URL',
        sinceRev: 'rev 5',
      },
    ],
  },
  {
    axis: 'Outbound',
    intro: 'What the desk sends out: events to your services, the daily digest, calls to your model, and links you choose to share.',
    items: [
      // server/domain/outbound
      {
        key: 'outbound-webhooks',
        name: 'Outbound webhooks',
        detail: 'Every event of the catalog POSTed to the receivers that chose it, signed to the Standard Webhooks spec, delivered in up to 8 scheduled attempts over about a day, with a delivery log and manual retry.',
        auth: 'HMAC-SHA256 signature (webhook-signature) with a per-subscription whsec_ secret',
        sinceRev: 'rev 20',
      },
      // the digest (DESK_SMTP_URL)
      {
        key: 'smtp-digest',
        name: 'Email digest over SMTP',
        detail: 'The daily digest sent through your own SMTP server (DESK_SMTP_URL); without one, each mail is written as an .eml file to the outbox folder.',
        auth: 'Your SMTP server’s credentials in DESK_SMTP_URL',
        sinceRev: 'rev 31',
      },
      // server/engine (openai provider)
      {
        key: 'openai-compatible-engine',
        name: 'OpenAI-compatible model servers',
        detail: 'Cycles run on any OpenAI-compatible endpoint: OpenAI, Ollama, LM Studio, vLLM; answers are checked against a strict JSON schema and every cycle’s tokens are priced into the cost ledger.',
        auth: 'API key kept outside the database (secrets.json, encrypted on the desktop)',
        sinceRev: 'rev 10',
      },
      // server/api/sharing
      {
        key: 'share-links',
        name: 'Public share links of tasks',
        detail: 'A read-only page of a task’s work log or timeline at an unguessable address, for a client or a colleague without an account; revoke it and the page is gone.',
        auth: 'Unguessable token in the share URL',
        sinceRev: 'rev 28',
      },
      // server/domain/badge
      {
        key: 'health-badge',
        name: 'Health badge',
        detail: 'An SVG badge with the desk’s health score for a README or a wiki, at /api/v1/badge.svg.',
        auth: 'Dedicated read-only badge token in the query (never the workspace token), rotatable',
        sinceRev: 'rev 41',
      },
    ],
  },
  {
    axis: 'Programmatic',
    intro: 'For your own scripts: the API the desk’s UI uses, its description, and your data in and out.',
    items: [
      {
        key: 'rest-api',
        name: 'REST API',
        detail: 'Everything the UI does, under /api/v1 on the desk’s address: signals, sources, tasks, memory, outputs, runs, cost, members, settings.',
        auth: 'Bearer workspace token (Authorization header), rotatable',
        sinceRev: 'rev 1',
      },
      {
        key: 'openapi-document',
        name: 'OpenAPI 3.1 document',
        detail: 'The machine-readable description of every operation at /api/v1/openapi.json, with an interactive reference at /api/docs: generate a client in any language.',
        auth: 'None',
        sinceRev: 'rev 1',
      },
      {
        key: 'event-catalog',
        name: 'Event catalog',
        detail: 'GET /api/v1/events lists every event the desk emits with its payload and an example, for writing webhook receivers.',
        auth: 'Bearer workspace token',
        sinceRev: 'rev 20',
      },
      // server/domain/exports
      {
        key: 'exports',
        name: 'CSV and JSON exports',
        detail: 'Sources, activity, outputs, stale tasks, memory and decisions as CSV (spreadsheet-safe) or JSON, and the whole workspace as one JSON file.',
        auth: 'Bearer workspace token',
        sinceRev: 'rev 24',
      },
      {
        key: 'import',
        name: 'Workspace import',
        detail: 'Load the sources, signals and memory of a workspace export into this desk, with a dry run first; duplicates and invalid items are skipped and reported.',
        auth: 'Bearer workspace token',
        sinceRev: 'rev 25',
      },
      // server/api/public
      {
        key: 'public-content-api',
        name: 'Public content API',
        detail: 'Onboarding templates, changelog, blog, roadmap and votes, this catalog and pricing as JSON under /api/v1, cacheable and without a token.',
        auth: 'None',
        sinceRev: 'rev 37',
      },
    ],
  },
];

export function integrationCatalog(now: Date): IntegrationCatalog {
  const groups = GROUPS.map((g) => ({ axis: g.axis, intro: g.intro, count: g.items.length, items: g.items }));
  const per = (axis: IntegrationAxis) => groups.find((g) => g.axis === axis)?.count ?? 0;
  return {
    generatedAt: now.toISOString(),
    total: groups.reduce((sum, g) => sum + g.count, 0),
    perAxis: { Inbound: per('Inbound'), Outbound: per('Outbound'), Programmatic: per('Programmatic') },
    groups,
  };
}
