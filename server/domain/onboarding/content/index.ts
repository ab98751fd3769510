import { creativeMediaTemplates } from './creative-media';
import { educationMembershipTemplates } from './education-membership';
import { financeInsuranceTemplates } from './finance-insurance';
import { healthcareWellnessTemplates } from './healthcare-wellness';
import { hospitalityFoodTemplates } from './hospitality-food';
import { manufacturingSpecialtyTemplates } from './manufacturing-specialty';
import { professionalServicesTemplates } from './professional-services';
import { propertyRealestateTemplates } from './property-realestate';
import { retailEcommerceTemplates } from './retail-ecommerce';
import { tradesFieldServicesTemplates } from './trades-field-services';
import type { OnboardingTemplate } from './types';

export { TEMPLATE_CATEGORIES, categoryOf, isCategoryKey } from './categories';
export { CATEGORY_KEYS, type CategoryKey, type OnboardingTemplate, type TemplateCategory, type TemplateMemory, type TemplateSignal } from './types';

/** Every template in declaration order: the categories in CATEGORY_KEYS order, each file in its own order. */
export const ONBOARDING_TEMPLATES: readonly OnboardingTemplate[] = [
  ...retailEcommerceTemplates,
  ...professionalServicesTemplates,
  ...healthcareWellnessTemplates,
  ...tradesFieldServicesTemplates,
  ...hospitalityFoodTemplates,
  ...creativeMediaTemplates,
  ...propertyRealestateTemplates,
  ...financeInsuranceTemplates,
  ...educationMembershipTemplates,
  ...manufacturingSpecialtyTemplates,
];
