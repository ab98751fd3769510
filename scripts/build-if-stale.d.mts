export interface Step {
  name: 'gen' | 'ui';
  what: string;
  inputs: string[];
  outputs: string[];
  stamp: string;
}
export interface Verdict {
  stale: boolean;
  reason: string;
}
export const STEPS: Step[];
export function isBuildInput(relPath: string): boolean;
export function decide(inputs: { path: string; mtimeMs: number }[], outputs: { path: string; mtimeMs: number | null }[], stampMs: number | null): Verdict;
export function listInputs(baseDir: string, roots: string[]): { path: string; mtimeMs: number }[];
export function check(step: Step, baseDir?: string): Verdict;
