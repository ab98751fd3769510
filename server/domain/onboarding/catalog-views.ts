import type { MemoryKind } from '../memory/rules';
import type { SignalKind, SignalPriority } from '../signals/signal-view';
import type { CategoryKey } from './content/types';

/** The answer shapes of the public onboarding-template endpoints (public-api-v1, "Onboarding templates"). */

/** A memory the template seeds. */
export interface TemplateMemoryEntry {
  title: string;
  content: string;
  /** 0-10; 9 and above are hard rules (legal, compliance) the stale sweep never archives. @isInt */
  importance: number;
  kind: MemoryKind;
}

/** A sample signal: the kind of thing this business's sources bring in. */
export interface TemplateSignalEntry {
  title: string;
  detail: string;
  kind: SignalKind;
  priority: SignalPriority;
}

/** The fields every template row carries. */
export interface TemplateRowBase {
  key: string;
  name: string;
  description: string;
  /** @isInt */
  memoryCount: number;
  /** @isInt */
  signalCount: number;
  /** The human page: `{base_url}/templates/<key>`. */
  url: string;
  /** The API resource: `{base_url}/api/v1/onboarding-templates/<key>`. */
  apiUrl: string;
  /** Release label of the launch, `rev <number>`. */
  launchRev: string;
  /** ISO date of that release. @format date */
  launchDate: string;
}

/** A row of GET /onboarding-templates: the template whole. */
export interface TemplateListRow extends TemplateRowBase {
  category: CategoryKey;
  categoryLabel: string;
  categoryUrl: string;
  /** One-line tagline of what the industry cares about, or null. */
  keywordHint: string | null;
  memories: TemplateMemoryEntry[];
  signals: TemplateSignalEntry[];
}

/** A bucket of the `categories` summary of GET /onboarding-templates. */
export interface TemplateCategoryCount {
  key: CategoryKey;
  label: string;
  /** @isInt */
  templateCount: number;
  /** The category's human page: `{base_url}/templates/category/<key>`. */
  archiveUrl: string;
}

export interface TemplateCatalog {
  /** Templates in the catalog. @isInt */
  total: number;
  /** Every template in declaration order (categories in their order, each in its own). */
  templates: TemplateListRow[];
  /** The 10 categories in their order with their template counts. */
  categories: TemplateCategoryCount[];
}

/** The Category row of the public document. */
export interface TemplateCategoryRow {
  key: CategoryKey;
  label: string;
  description: string;
  /** @isInt */
  templateCount: number;
  /** The category's human page: `{base_url}/templates/category/<key>`. */
  archiveUrl: string;
  /** `{base_url}/api/v1/onboarding-templates/by-category/<key>`. */
  apiUrl: string;
  coverageDepth: {
    /** Memory entries across the category's templates. @isInt */
    memoryEntries: number;
    /** Sample signals across the category's templates. @isInt */
    sampleSignals: number;
    /** memoryEntries + sampleSignals. @isInt */
    totalEvidence: number;
  };
  /** The category's most recently launched template (ties: the first declared); null for an empty category. */
  latestLaunch: { templateKey: string; templateName: string; rev: string; /** @format date */ date: string } | null;
}

export interface TemplateCategoryList {
  /** @isInt */
  total: number;
  categories: TemplateCategoryRow[];
}

/** A template named by its neighbours and related rows. */
export interface TemplateLink {
  key: string;
  name: string;
  url: string;
  apiUrl: string;
}

/** GET /onboarding-templates/{key}. */
export interface TemplateDetail extends TemplateListRow {
  /** Adjacent templates in declaration order; null at either end of the catalog. */
  neighbors: { prev: TemplateLink | null; next: TemplateLink | null };
  /** Up to 6 other templates of the same category, in declaration order. */
  relatedByCategory: { category: CategoryKey; categoryLabel: string; templates: TemplateMemberRow[] };
  /** Templates in the whole catalog. @isInt */
  total: number;
}

/** A template as a category lists it. */
export type TemplateMemberRow = TemplateRowBase;

/** GET /onboarding-templates/by-category/{category}. */
export interface TemplateCategoryDetail {
  category: CategoryKey;
  label: string;
  description: string;
  /** @isInt */
  templateCount: number;
  archiveUrl: string;
  apiUrl: string;
  /** Every template of the category, in declaration order. */
  templates: TemplateMemberRow[];
}

/** A row of the search and of the recent lists. */
export interface TemplateSearchRow extends TemplateRowBase {
  category: CategoryKey;
  categoryLabel: string;
  categoryUrl: string;
  keywordHint: string | null;
}

export interface TemplateSearchResult {
  /** The query as matched (trimmed), or null when none was given. */
  q: string | null;
  /** Templates matching (all of them without q). @isInt */
  total: number;
  /** Rows answered (at most limit). @isInt */
  returned: number;
  /** Matching templates in declaration order, at most limit. */
  templates: TemplateSearchRow[];
}

export interface RecentTemplates {
  /** @isInt */
  returned: number;
  /** Newest launch first; the same launch date in declaration order. */
  templates: TemplateSearchRow[];
}

export interface RecentCategoryTemplates extends RecentTemplates {
  category: CategoryKey;
  categoryLabel: string;
}

export interface TemplateCategoryStats {
  key: CategoryKey;
  label: string;
  /** @isInt */
  templateCount: number;
  /** @isInt */
  memoryEntries: number;
  /** @isInt */
  signalEntries: number;
  /** memoryEntries / templateCount, 2 decimals (0 for an empty category). */
  averageMemoryEntriesPerTemplate: number;
}

/** A launch that bounds the timeline. */
export interface TemplateLaunchMark {
  rev: string;
  /** @format date */
  date: string;
}

export interface TemplateStats {
  /** @isInt */
  totalTemplates: number;
  /** @isInt */
  totalCategories: number;
  /** @isInt */
  totalMemoryEntries: number;
  /** @isInt */
  totalSignals: number;
  /** 2 decimals. */
  averageMemoryEntriesPerTemplate: number;
  /** 2 decimals. */
  averageSignalsPerTemplate: number;
  /** Mean importance of every memory entry, 2 decimals. */
  averageMemoryImportance: number;
  /** Memory entries per kind (every kind listed, 0 included). */
  memoryKinds: Record<MemoryKind, number>;
  /** Sample signals per kind (every kind listed, 0 included). */
  signalKinds: Record<SignalKind, number>;
  /** Sample signals per priority (every priority listed, 0 included). */
  signalPriorities: Record<SignalPriority, number>;
  /** The categories in their order. */
  perCategory: TemplateCategoryStats[];
  /** The first and the latest launch (null when the catalog is empty) and how many releases launched templates. */
  launchTimeline: {
    first: TemplateLaunchMark | null;
    latest: TemplateLaunchMark | null;
    /** @isInt */
    releasesWithLaunches: number;
  };
}

/** The 404 body of an unknown template key (the public document's, with the message every error carries). */
export interface TemplateNotFoundBody {
  error: 'template_not_found';
  message: string;
  key: string;
}

/** The 404 body of an unknown category (the public document's, with the message every error carries). */
export interface CategoryNotFoundBody {
  error: 'category_not_found';
  message: string;
  category: string;
  validCategories: CategoryKey[];
}
