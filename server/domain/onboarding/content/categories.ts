import type { CategoryKey, TemplateCategory } from './types';

/** The ten industry buckets, in CATEGORY_KEYS order, with the label and description the pages and API show. */
export const TEMPLATE_CATEGORIES: TemplateCategory[] = [
  { key: 'retail-ecommerce', label: 'Retail & E-commerce', description: 'Online shops, marketplaces and high-street stores: stock, orders, returns, reviews and the promotions calendar.' },
  { key: 'professional-services', label: 'Professional Services', description: 'Agencies, consultancies, accountants and law practices: client deadlines, scope, billing and regulatory dates.' },
  { key: 'healthcare-wellness', label: 'Healthcare & Wellness', description: 'Clinics, practices, studios and therapists: appointments, patient feedback, compliance and clinical safety.' },
  { key: 'trades-field-services', label: 'Trades & Field Services', description: 'Plumbers, electricians, builders, cleaners and installers: jobs, quotes, crews, materials and callbacks.' },
  { key: 'hospitality-food', label: 'Hospitality & Food', description: 'Restaurants, cafés, bars, hotels and caterers: bookings, reviews, food safety, suppliers and staffing.' },
  { key: 'creative-media', label: 'Creative & Media', description: 'Studios, publishers, podcasters and freelance creatives: commissions, releases, audience and rights.' },
  { key: 'property-realestate', label: 'Property & Real Estate', description: 'Letting agents, landlords, property managers and estate agents: tenancies, maintenance, viewings and compliance.' },
  { key: 'finance-insurance', label: 'Finance & Insurance', description: 'Brokers, advisers, bookkeepers and small lenders: client reviews, filings, renewals and regulatory duties.' },
  { key: 'education-membership', label: 'Education & Membership', description: 'Tutors, schools, course creators, clubs and associations: enrolments, renewals, cohorts and safeguarding.' },
  { key: 'manufacturing-specialty', label: 'Manufacturing & Specialty', description: 'Small makers, workshops and specialty producers: orders, materials, quality, certification and lead times.' },
];

const byKey = new Map<string, TemplateCategory>(TEMPLATE_CATEGORIES.map((c) => [c.key, c]));

/** The category of a key, or undefined for a string that names none. */
export const categoryOf = (key: string): TemplateCategory | undefined => byKey.get(key);

export const isCategoryKey = (key: string): key is CategoryKey => byKey.has(key);
