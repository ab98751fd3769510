import type { OnboardingTemplate } from './types';

export const retailEcommerceTemplates: OnboardingTemplate[] = [];
