import crypto from 'node:crypto';
import { FeedError } from './feed-error';
import { clip, htmlToText } from './html-text';

/** At most this many items are read from one answer (the newest, as feeds list them first). */
export const MAX_ITEMS_PER_FEED = 100;
/** Feed items become signals: titles are cut to the API's 200 characters, details to 4000 (below the API's 5000). */
export const MAX_TITLE_CHARS = 200;
export const MAX_DETAIL_CHARS = 4000;
export const MAX_LINK_CHARS = 2000;

export interface FeedItem {
  /** Dedupe key: from guid/id, else link, else title + date. Stable across polls. */
  key: string;
  title: string;
  detail: string;
  link: string | null;
  publishedAt: string | null;
}

export interface ParsedFeed {
  format: 'rss' | 'atom' | 'rdf' | 'json';
  title: string | null;
  items: FeedItem[];
}

const hash = (value: string) => crypto.createHash('sha256').update(value).digest('base64url').slice(0, 32);

/** `id:` / `link:` / `td:` prefixes keep keys of different origin apart. */
export function itemKey(id: string | undefined | null, link: string | null, title: string, date: string | null): string {
  if (id && id.trim()) return `id:${hash(id.trim())}`;
  if (link) return `link:${hash(link)}`;
  return `td:${hash(`${title}\n${date ?? ''}`)}`;
}

function isoDate(raw: unknown): string | null {
  if (typeof raw !== 'string' || !raw.trim()) return null;
  const at = new Date(raw.trim());
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

const text = (value: unknown): string => (typeof value === 'string' ? htmlToText(value) : '');

interface RawItem {
  id?: string | null;
  title: string;
  detail: string;
  link?: string | null;
  date?: unknown;
}

function toItem(raw: RawItem): FeedItem | null {
  const detail = clip(raw.detail, MAX_DETAIL_CHARS);
  const trimmed = raw.link?.trim() || null;
  // A link that is not a usable http(s) URL is left out rather than stored as sourceUrl.
  const link = trimmed && trimmed.length <= MAX_LINK_CHARS && /^https?:\/\//i.test(trimmed) ? trimmed : null;
  const title = clip(raw.title || detail.split('\n')[0] || link || '', MAX_TITLE_CHARS);
  if (!title) return null;
  const publishedAt = isoDate(raw.date);
  return { key: itemKey(raw.id, trimmed, title, publishedAt), title, detail, link, publishedAt };
}

/** feedsmith, loaded for the first feed read rather than at every desk start (a desk without feeds never needs it). */
let feedsmith: Promise<typeof import('feedsmith')> | undefined;

/**
 * Parses RSS 0.9x/2.0, Atom 0.3/1.0, RDF and JSON Feed 1.0/1.1 (through feedsmith) into items.
 * Anything else is a FeedError 'not_a_feed'.
 */
export async function parseFeedText(body: string, maxItems = MAX_ITEMS_PER_FEED): Promise<ParsedFeed> {
  const { parseFeed } = await (feedsmith ??= import('feedsmith'));
  let parsed: ReturnType<typeof parseFeed>;
  try {
    parsed = parseFeed(body.trim(), { maxItems });
  } catch {
    throw new FeedError('not_a_feed', 'The answer is not an RSS, Atom or JSON feed');
  }
  const raws: RawItem[] = [];
  let title: string | null = null;
  switch (parsed.format) {
    case 'rss': {
      title = text(parsed.feed.title) || null;
      for (const it of parsed.feed.items ?? []) {
        raws.push({
          id: it.guid?.value,
          title: text(it.title),
          detail: text(it.content?.encoded ?? it.description),
          link: it.link ?? (it.guid?.isPermaLink !== false && /^https?:/i.test(it.guid?.value ?? '') ? it.guid?.value : null),
          date: it.pubDate ?? it.dc?.dates?.[0],
        });
      }
      break;
    }
    case 'atom': {
      title = text(parsed.feed.title?.value) || null;
      for (const it of parsed.feed.entries ?? []) {
        const link = it.links?.find((l) => !l.rel || l.rel === 'alternate')?.href ?? it.links?.[0]?.href ?? null;
        raws.push({
          id: it.id,
          title: text(it.title?.value),
          detail: text(it.content?.value ?? it.summary?.value),
          link,
          date: it.published ?? it.updated,
        });
      }
      break;
    }
    case 'rdf': {
      title = text(parsed.feed.title) || null;
      for (const it of parsed.feed.items ?? []) {
        raws.push({ id: it.rdf?.about, title: text(it.title), detail: text(it.content?.encoded ?? it.description), link: it.link, date: it.dc?.dates?.[0] });
      }
      break;
    }
    case 'json': {
      title = text(parsed.feed.title) || null;
      for (const it of parsed.feed.items ?? []) {
        raws.push({
          id: it.id === undefined || it.id === null ? null : String(it.id),
          title: text(it.title),
          detail: it.content_text ? htmlToText(it.content_text) : text(it.content_html ?? it.summary),
          link: it.url ?? it.external_url ?? null,
          date: it.date_published ?? it.date_modified,
        });
      }
      break;
    }
  }
  const items = raws.map(toItem).filter((i): i is FeedItem => i !== null);
  return { format: parsed.format, title, items };
}
