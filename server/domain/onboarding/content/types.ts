import type { MemoryKind } from '../../memory/rules';
import type { SignalKind, SignalPriority } from '../../signals/signal-store';

/** The ten industry buckets of the public document, in its order. */
export const CATEGORY_KEYS = ['retail-ecommerce', 'professional-services', 'healthcare-wellness', 'trades-field-services', 'hospitality-food', 'creative-media', 'property-realestate', 'finance-insurance', 'education-membership', 'manufacturing-specialty'] as const;
export type CategoryKey = (typeof CATEGORY_KEYS)[number];

export interface TemplateCategory { key: CategoryKey; label: string; description: string }

/** A memory the template seeds: a fact, decision, preference or lesson the loop should know from day one. */
export interface TemplateMemory { title: string; content: string; importance: number; kind: MemoryKind }
/** A sample signal: the kind of thing this business's sources will bring in. */
export interface TemplateSignal { title: string; detail: string; kind: SignalKind; priority: SignalPriority }

export interface OnboardingTemplate {
  key: string;            // kebab-case, unique across the catalog
  name: string;
  description: string;    // 1-2 sentences: who it is for and what the desk will watch
  category: CategoryKey;
  keywordHint: string | null; // one-line tagline of what the industry cares about
  launchRev: string;      // `rev <n>`, one of the releases below; launchDate is derived from it
  memories: TemplateMemory[];
  signals: TemplateSignal[];
}
