import type { OnboardingTemplate } from './types';

export const financeInsuranceTemplates: OnboardingTemplate[] = [];
