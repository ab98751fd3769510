// ESLint 9 flat config: typescript-eslint's recommended rules everywhere, React hooks rules in the renderer.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default defineConfig(
  globalIgnores(['out/', 'node_modules/', 'server/generated/', 'renderer/src/api/schema.gen.ts', 'renderer/src/api/rules.gen.ts', 'test-results/', 'playwright-report/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: globals.node },
    rules: {
      // `_`-prefixed names are deliberately unused (Express error handlers, tsoa signatures).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}', 'preload/**/*.ts', 'e2e/**/*.ts'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
  },
);
