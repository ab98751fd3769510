import type { OnboardingTemplate } from './types';

export const healthcareWellnessTemplates: OnboardingTemplate[] = [];
