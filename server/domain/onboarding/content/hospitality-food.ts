import type { OnboardingTemplate } from './types';

export const hospitalityFoodTemplates: OnboardingTemplate[] = [];
