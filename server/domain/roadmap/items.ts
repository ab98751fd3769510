import type { RoadmapPhaseKey, RoadmapStatus } from './rules';

/**
 * Where Desk goes next: the public roadmap's content, in display order. Keys are stable (votes
 * refer to them); an item that ships leaves the roadmap for the changelog.
 */

export interface RoadmapItemContent {
  key: string;
  title: string;
  description: string;
  status: RoadmapStatus;
}

export interface RoadmapPhaseContent {
  key: RoadmapPhaseKey;
  name: string;
  description: string;
  items: RoadmapItemContent[];
}

export const ROADMAP: RoadmapPhaseContent[] = [
  {
    key: 'now',
    name: 'Now',
    description: 'Being built in the current release cycles.',
    items: [
      {
        key: 'mailbox-source',
        title: 'Mailbox as a source',
        description:
          'Poll an IMAP folder (a shared support@ inbox, a supplier label) and turn each new message into a signal, with the sender and subject kept and attachments listed, so email joins feeds and webhooks without a forwarding rule.',
        status: 'in_progress',
      },
      {
        key: 'chat-notifications',
        title: 'Digest and alerts in Slack, Teams and Matrix',
        description:
          'Send the daily digest, overdue outputs and cost alerts to a chat channel through its incoming-webhook URL, formatted for that chat instead of as raw JSON events.',
        status: 'in_progress',
      },
      {
        key: 'encrypted-offsite-backup',
        title: 'Encrypted off-site backups',
        description:
          'Copy the daily database backup to any S3-compatible bucket (Backblaze B2, Cloudflare R2, MinIO), encrypted on this machine with a passphrase the bucket never sees, and restore from it on a new machine.',
        status: 'in_progress',
      },
      {
        key: 'auto-approve-rules',
        title: 'Auto-approve rules for low-risk outputs',
        description:
          'Let outputs of chosen kinds and tags (a weekly metrics summary, an internal checklist) approve themselves after the watch window when nobody objected, with every such approval in the activity log.',
        status: 'in_progress',
      },
    ],
  },
  {
    key: 'next',
    name: 'Next',
    description: 'Designed and queued: what comes after the current work.',
    items: [
      {
        key: 'semantic-memory',
        title: 'Semantic memory retrieval with local embeddings',
        description:
          'Rank memory by meaning as well as by words, using embeddings from the local model server you already run (Ollama, LM Studio), so "refund policy" finds the entry titled "returns after 30 days".',
        status: 'planned',
      },
      {
        key: 'mcp-server',
        title: 'Desk as an MCP server',
        description:
          'Expose signals, tasks, memory and outputs to assistants over the Model Context Protocol, read-only by default, with the same scoped tokens as the API.',
        status: 'planned',
      },
      {
        key: 'page-watch-source',
        title: 'Watch a web page for changes',
        description:
          'A source that fetches a page on a schedule (a competitor price list, a regulator notice page) and files a signal with the changed text when its content differs from the last look.',
        status: 'planned',
      },
      {
        key: 'spend-forecast',
        title: 'Month-end spend forecast and tag budgets',
        description:
          'Project this month’s AI spend from the daily cost rows and let each tag carry a monthly budget that warns before it is used up, next to the daily cap you have today.',
        status: 'planned',
      },
      {
        key: 'publish-outputs',
        title: 'Publish approved outputs',
        description:
          'Send an approved draft where it belongs: a WordPress or Ghost post as a draft, an email through your SMTP server, a Mastodon post, with a link back from the output to what was published.',
        status: 'planned',
      },
      {
        key: 'calendar-context',
        title: 'Calendar as context',
        description:
          'Read an ICS calendar so cycles know about tomorrow’s client meeting or a stocktake on Friday, and can prepare the brief before the event rather than after.',
        status: 'planned',
      },
    ],
  },
  {
    key: 'later',
    name: 'Later',
    description: 'Ideas we are researching; votes help decide which come first.',
    items: [
      {
        key: 'multi-desk',
        title: 'Several desks side by side',
        description:
          'Run one desk per client or per business from the same window, each with its own data folder, token and cost cap, and switch between them from the tray.',
        status: 'exploring',
      },
      {
        key: 'mobile-review',
        title: 'Review outputs from your phone',
        description:
          'A small, paired mobile page that reaches the desk through the relay to approve or archive waiting outputs and read the day’s summary, without opening the desk to the internet.',
        status: 'exploring',
      },
      {
        key: 'voice-notes',
        title: 'Voice notes transcribed on this machine',
        description:
          'Record a note for a task and have it transcribed locally (whisper.cpp), so standing instructions can be spoken between jobs and never leave the machine.',
        status: 'exploring',
      },
      {
        key: 'model-setup-assistant',
        title: 'One-click local model setup',
        description:
          'Detect a running Ollama or LM Studio, suggest a model that fits the machine’s memory, pull it and run a test cycle, so the OpenAI-compatible engine works without reading a setup guide.',
        status: 'exploring',
      },
      {
        key: 'source-plugins',
        title: 'Source plugins',
        description:
          'A small, documented interface for writing your own source in TypeScript (a shop’s order API, a ticketing system) that the desk polls like a feed, with the same pause, cadence and quietness rules.',
        status: 'exploring',
      },
      {
        key: 'two-machine-sync',
        title: 'One desk on two machines',
        description:
          'Keep a desk in step between an office machine and a laptop by replicating the database over the relay, so work continues where you are without a cloud account.',
        status: 'exploring',
      },
    ],
  },
];

/** Every item in display order, with its phase. */
export const ROADMAP_ITEMS: (RoadmapItemContent & { phase: RoadmapPhaseKey })[] = ROADMAP.flatMap((p) => p.items.map((i) => ({ ...i, phase: p.key })));
