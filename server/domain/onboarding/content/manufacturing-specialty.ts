import type { OnboardingTemplate } from './types';

export const manufacturingSpecialtyTemplates: OnboardingTemplate[] = [];
