import type { OnboardingTemplate } from './types';

export const educationMembershipTemplates: OnboardingTemplate[] = [];
