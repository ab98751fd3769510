import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { DeskError } from '../core/errors';
import type { Services } from '../services';
import { cents, lines } from './results';

/** JSON-RPC's "resource not found" (the MCP specification's code). */
const RESOURCE_NOT_FOUND = -32002;
/** Entries each resource list offers (the newest or the waiting ones); the rest are read by URI. */
const LISTED = 50;

const json = (uri: URL, data: unknown): ReadResourceResult => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(data, null, 2) }] });

/** A domain 404 is the protocol's "resource not found"; the id is whatever followed the URI's prefix. */
async function reading(read: () => Promise<ReadResourceResult>): Promise<ReadResourceResult> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof DeskError && err.status === 404) throw new McpError(RESOURCE_NOT_FOUND, err.message);
    throw err;
  }
}

const idOf = (value: string | string[]): string => (Array.isArray(value) ? (value[0] ?? '') : value);

/** Tasks, outputs and memory entries by URI (desk://tasks/{id} ...), and desk://today. */
export function registerResources(server: McpServer, s: Services): void {
  server.registerResource(
    'today',
    'desk://today',
    { title: 'Today on the desk', description: "Today's figures against yesterday and the 7-day baseline, outputs waiting, and spend against the daily cap.", mimeType: 'application/json' },
    async (uri) => {
      const [today, cost] = await Promise.all([s.overview.today(), s.cost.today()]);
      return json(uri, { ...today, spend: { todayCents: cost.todayCents, dailyCostCapCents: cost.dailyCostCap, capPercent: cost.capPercent, capReached: cost.capReached } });
    },
  );

  server.registerResource(
    'task',
    new ResourceTemplate('desk://tasks/{id}', {
      list: async () => ({ resources: (await s.tasks.list({ limit: LISTED })).tasks.map((t) => ({ uri: `desk://tasks/${t.id}`, name: t.title, mimeType: 'application/json' })) }),
    }),
    { title: 'Task', description: 'A task with its status, goal, tags, blockers, cost and sources (the newest 50 are listed).', mimeType: 'application/json' },
    (uri, { id }) => reading(async () => json(uri, await s.tasks.get(idOf(id)))),
  );

  server.registerResource(
    'output',
    new ResourceTemplate('desk://outputs/{id}', {
      list: async () => ({
        resources: (await s.artifacts.list({ status: 'ready', limit: LISTED })).rows.map((a) => ({ uri: `desk://outputs/${a.id}`, name: a.title, mimeType: 'text/markdown' })),
      }),
    }),
    { title: 'Output', description: 'An output of the loop as markdown, with its status and wait (the outputs waiting for review are listed).', mimeType: 'text/markdown' },
    (uri, { id }) =>
      reading(async () => {
        const a = await s.artifacts.get(idOf(id));
        const head = `# ${a.title}\n\n_${a.id} · ${a.kind} · ${a.status}${a.approvalAttention ? ` · ${a.approvalAttention}` : ''}${a.taskTitle ? ` · task: ${a.taskTitle}` : ''}_\n\n`;
        return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: head + a.content }] };
      }),
  );

  server.registerResource(
    'memory',
    new ResourceTemplate('desk://memory/{id}', {
      list: async () => ({ resources: (await s.memory.list({ limit: LISTED })).memory.map((m) => ({ uri: `desk://memory/${m.id}`, name: m.title, mimeType: 'application/json' })) }),
    }),
    { title: 'Memory entry', description: 'A durable memory entry the loop retrieves for its cycles (the newest 50 are listed).', mimeType: 'application/json' },
    (uri, { id }) => reading(async () => json(uri, await s.memory.get(idOf(id)))),
  );
}

/** "Review my queue" and "What changed since yesterday": the current data in the prompt, the tools named for what follows. */
export function registerPrompts(server: McpServer, s: Services): void {
  server.registerPrompt(
    'review_my_queue',
    { title: 'Review my queue', description: 'Walk through the outputs waiting for a decision, oldest and overdue first, and decide them with the operator.' },
    async () => {
      const page = await s.artifacts.list({ status: 'ready', limit: 25 });
      const a = page.approvalAging;
      const queue = lines(
        page.rows.map((r) => `${r.title} (${r.id}): ${r.approvalAttention ?? 'ready'}, waiting ${Math.round(r.approvalAgeHours ?? 0)} h${r.reviewOwner ? `, owner ${r.reviewOwner.name}` : ''}`),
        'Nothing waits.',
      );
      const text = [
        `My Desk review queue: ${a.waiting} output(s) wait (${a.pastOverdue} overdue, ${a.pastWatch} past watch).`,
        queue,
        '',
        'Go through them with me, overdue first: read each one (read_output), tell me in two lines what it says and whether it is ready to ship, and recommend approve or archive.',
        'Only call approve_outputs or archive_outputs after I say so for that output. If one needs changes, add an operator note to its task (add_note) with what to change.',
      ].join('\n');
      return { messages: [{ role: 'user', content: { type: 'text', text } }] };
    },
  );

  server.registerPrompt(
    'what_changed_since_yesterday',
    { title: 'What changed since yesterday', description: 'What came in and what was decided in the last 24 hours, and what it costs today.' },
    async () => {
      const [news, cost] = await Promise.all([s.overview.whatsNew(), s.cost.today()]);
      const c = news.counts;
      const sample = (items: { title: string; id: string }[]) => items.map((i) => `${i.title} (${i.id})`).join('; ') || 'none';
      const text = [
        `On my Desk since ${news.since}: ${c.signals} signal(s), ${c.outputs} new output(s), ${c.approvals} approval(s), ${c.activity} logged change(s).`,
        `New signals: ${sample(news.samples.signals)}.`,
        `New outputs: ${sample(news.samples.outputs)}.`,
        `Approved: ${sample(news.samples.approvals)}.`,
        `Spend today ${cents(cost.todayCents)} (yesterday ${cents(cost.yesterdayCents)})${cost.capReached ? ': the daily cap is reached' : ''}.`,
        '',
        'Summarise for me what changed since yesterday and what needs my attention first. Use search, review_queue and spend_today for detail.',
      ].join('\n');
      return { messages: [{ role: 'user', content: { type: 'text', text } }] };
    },
  );
}
