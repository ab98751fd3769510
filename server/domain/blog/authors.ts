import type { BlogAuthorRecord, BlogCategoryRecord } from './content-types';

/** A round avatar with the author's initials, as an inline SVG data: URL (no external host). */
function initialsAvatar(initials: string, background: string): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">` +
    `<circle cx="48" cy="48" r="48" fill="${background}"/>` +
    `<text x="48" y="58" font-family="system-ui,sans-serif" font-size="34" font-weight="600" fill="#ffffff" text-anchor="middle">${initials}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

export const BLOG_AUTHORS: readonly BlogAuthorRecord[] = [
  {
    slug: 'maren-lindqvist',
    name: 'Maren Lindqvist',
    profile: {
      tagline: 'Founder. Runs three desks of her own and writes down what they teach her.',
      bio: 'Maren started Desk after years of running operations for small online businesses, where the work was never hard, only endless. She writes about the habits that make an AI desk trustworthy: caps, reviews and memory worth keeping.',
      avatarUrl: initialsAvatar('ML', '#3451b2'),
      homepageUrl: null,
      links: [],
    },
  },
  {
    slug: 'tomas-okafor',
    name: 'Tomás Okafor',
    profile: {
      tagline: 'Engineering. Storage, the loop, and the boring parts that keep both fast.',
      bio: 'Tomás works on the server: the SQLite layer, the cycle worker and the cost ledger. Before Desk he built point-of-sale sync for restaurants, which is where he learned to distrust anything that needs the network to work.',
      avatarUrl: initialsAvatar('TO', '#0f766e'),
      homepageUrl: null,
      links: [],
    },
  },
  {
    slug: 'priya-raman',
    name: 'Priya Raman',
    profile: {
      tagline: 'Operations. Spends her weeks with operators and their desks in the field.',
      bio: 'Priya onboards new operators and collects the stories behind our case studies: what they set up on day one, what they changed in week three, and what they would tell the next business like theirs.',
      avatarUrl: initialsAvatar('PR', '#b45309'),
      homepageUrl: null,
      links: [],
    },
  },
  {
    slug: 'jonah-weiss',
    name: 'Jonah Weiss',
    profile: {
      tagline: 'Integrations. Webhooks in, webhooks out, and everything that retries.',
      bio: 'Jonah owns the edges of Desk: feeds, the inbound webhook, the relay and outbound deliveries. He has debugged more signature mismatches than he would like to admit.',
      avatarUrl: initialsAvatar('JW', '#7c3aed'),
      homepageUrl: null,
      links: [],
    },
  },
];

export const BLOG_CATEGORIES: readonly BlogCategoryRecord[] = [
  { slug: 'operating', name: 'Operating', description: 'Day-to-day habits for running an AI desk: caps, memory, reviews and sources.', accentColor: '#3451b2' },
  { slug: 'engineering', name: 'Engineering', description: 'How Desk is built, and why it is built that way: local-first storage, the loop, webhooks.', accentColor: '#0f766e' },
  { slug: 'case-studies', name: 'Case studies', description: 'Real businesses, their first month with a desk, and what they changed along the way.', accentColor: '#b45309' },
  { slug: 'product', name: 'Product', description: 'New ways to use Desk, explained by the people who built them.', accentColor: '#7c3aed' },
];
