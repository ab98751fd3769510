import type { OnboardingTemplate } from './types';

export const creativeMediaTemplates: OnboardingTemplate[] = [];
