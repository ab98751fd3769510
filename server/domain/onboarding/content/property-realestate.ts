import type { OnboardingTemplate } from './types';

export const propertyRealestateTemplates: OnboardingTemplate[] = [];
