import { DateTime } from 'luxon';
import { escapeHtml, ICON_LINK } from '../../core/html';
import type { SharedEntry, SharedTaskPage } from '../../domain/sharing/share-service';

/**
 * The public work-log and timeline pages: plain HTML with no script, every value from the desk
 * escaped (titles, summaries, comments and work-log text may hold anything, `<script>` included).
 */


const STATUS_LABEL: Record<SharedTaskPage['status'], string> = {
  queued: 'Queued',
  in_progress: 'In progress',
  needs_input: 'Needs input',
  done: 'Done',
  archived: 'Archived',
};

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
header p{color:#555;white-space:pre-wrap}.status{display:inline-block;padding:.1rem .5rem;border-radius:1rem;background:#eef;font-size:.85rem}
ol{list-style:none;padding:0}li{border-left:3px solid #ccd;padding:.25rem .75rem;margin:.75rem 0}li.reply{margin-left:1.5rem}
time{color:#666;font-size:.85rem}.text{white-space:pre-wrap;margin:.25rem 0 0}footer{color:#5f6368;font-size:.8rem;margin-top:2rem}`;

function entryHtml(entry: SharedEntry, timezone: string): string {
  const at = DateTime.fromISO(entry.at, { zone: timezone });
  const when = `<time datetime="${escapeHtml(entry.at)}">${escapeHtml(at.toFormat('yyyy-MM-dd HH:mm'))}</time>`;
  switch (entry.type) {
    case 'created':
      return `<li class="created">${when} <strong>Task created</strong></li>`;
    case 'work_log':
      return `<li class="work-log">${when} <strong>Work log</strong><p class="text">${escapeHtml(entry.text)}</p></li>`;
    case 'comment':
      return `<li class="comment${entry.isReply ? ' reply' : ''}">${when} <strong>${escapeHtml(entry.authorName)}</strong>${entry.isReply ? ' replied' : ''}<p class="text">${escapeHtml(entry.text)}</p></li>`;
  }
}

export function renderSharedPage(page: SharedTaskPage): string {
  const heading = page.page === 'timeline' ? 'Timeline' : 'Work log';
  const entries = page.entries.length === 0 ? '<p>Nothing here yet.</p>' : `<ol>${page.entries.map((e) => entryHtml(e, page.timezone)).join('')}</ol>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(page.title)} · ${heading}</title>${ICON_LINK}<style>${STYLE}</style></head>
<body><header><h1>${escapeHtml(page.title)}</h1><span class="status">${escapeHtml(STATUS_LABEL[page.status] ?? page.status)}</span>
<p>${escapeHtml(page.summary)}</p></header>
<main><h2>${heading}</h2>${entries}</main>
<footer>Shared read-only from Desk. Times are in ${escapeHtml(page.timezone)}.</footer></body></html>`;
}

export const NOT_SHARED_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Not found</title>${ICON_LINK}</head>
<body><h1>Not found</h1><p>This link does not open anything: it may have been turned off.</p></body></html>`;
