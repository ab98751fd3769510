import type { Mount } from '../../app';
import { blogPagesMount } from './blog-pages';
import { changelogPagesMount } from './changelog-pages';
import { integrationsPagesMount } from './integrations-pages';
import { pricingPagesMount } from './pricing-pages';
import { roadmapPagesMount } from './roadmap-pages';

/**
 * The human pages of the public content (outside /api, no token): each area adds its page routes
 * to PUBLIC_PAGE_MOUNTS (a Mount each, in its own file under server/api/public/), rendered with
 * renderPublicPage and sent with cachePublicly. Mounted before the app's client-route fallback.
 */
const PUBLIC_PAGE_MOUNTS: Mount[] = [
  changelogPagesMount,
  blogPagesMount,
  roadmapPagesMount,
  integrationsPagesMount,
  pricingPagesMount,
];

export const publicPagesMount: Mount = (app, services) => {
  for (const mount of PUBLIC_PAGE_MOUNTS) mount(app, services);
};
