import type { OnboardingTemplate } from './types';

export const tradesFieldServicesTemplates: OnboardingTemplate[] = [];
