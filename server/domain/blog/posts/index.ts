import type { BlogPostRecord } from '../content-types';
import { caseStudyPosts } from './case-studies';
import { integrationPosts } from './integrations';
import { operatingBasicsPosts } from './operating-basics';
import { underTheHoodPosts } from './under-the-hood';

/** Every post of the blog (in no particular order: the service sorts by date). */
export const BLOG_POSTS: readonly BlogPostRecord[] = [...operatingBasicsPosts, ...integrationPosts, ...caseStudyPosts, ...underTheHoodPosts];
