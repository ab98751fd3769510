import type { OnboardingTemplate } from './types';

export const professionalServicesTemplates: OnboardingTemplate[] = [];
