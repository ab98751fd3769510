/** The blog's data as written in server/domain/blog/*: authors, categories and posts. */

export interface AuthorProfile {
  tagline: string;
  bio: string;
  /** An inline SVG data: URL (never an external host). */
  avatarUrl: string;
  homepageUrl: string | null;
  links: { label: string; url: string }[];
}

export interface BlogAuthorRecord {
  slug: string;
  name: string;
  profile: AuthorProfile | null;
}

export interface BlogCategoryRecord {
  slug: string;
  name: string;
  description: string;
  /** CSS hex colour the pages use as the category's accent. */
  accentColor: string;
}

export interface BlogPostRecord {
  slug: string;
  title: string;
  /** ISO date of publication. */
  date: string;
  excerpt: string;
  /** As the author wrote them; tags are collapsed by slug (letter case aside) in the taxonomy. */
  tags: string[];
  authorSlug: string;
  categorySlug: string;
  /** Trusted HTML from this repository: paragraphs, headings, lists, code; never a script. */
  bodyHtml: string;
}
