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
  // The transaction boundary (db/transactions.ts): every transaction opens through inTransaction().
  {
    files: ['server/**/*.ts', 'db/**/*.ts'],
    ignores: ['db/transactions.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='transaction'][arguments.length=0]",
          message: 'Open transactions with inTransaction(db, fn) from db/transactions.ts: nested reads then join it instead of hanging.',
        },
      ],
    },
  },
  // Layers (docs/architecture.md): api -> domain -> db; jobs and integrations are wired by start.ts.
  {
    files: ['server/api/**/*.ts'],
    ignores: ['server/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/jobs/*', '**/jobs'], message: 'Controllers do not import jobs: call a domain service (it may take a hook that start.ts wires to the scheduler).' },
            { group: ['**/db/*', '!**/db/schema'], message: 'Controllers do not touch the database: call a domain service.' },
          ],
        },
      ],
    },
  },
  {
    files: ['server/integrations/**/*.ts'],
    ignores: ['server/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/domain/*', '**/domain/**'], message: 'Integrations (adapters) do not import domain code: the domain calls them.' }] },
      ],
    },
  },
  {
    files: ['server/domain/**/*.ts'],
    ignores: ['server/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/api/*', '**/api/**', '**/jobs/*', '**/jobs/**'], message: 'Domain code does not import the API or jobs layers.' }] },
      ],
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
