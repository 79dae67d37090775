// npm run lint: ESLint (typescript-eslint's recommended rules and the import boundaries of
// scripts/lint/boundaries.js), then Prettier's check. Both run in npm test.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import boundaries from './scripts/lint/boundaries.js';

export default tseslint.config(
  { ignores: ['build/**', 'tmp/**', 'var/**', 'web/dist/**', 'coverage/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { local: { rules: { boundaries } } },
    rules: {
      'local/boundaries': 'error',
      // A leading underscore names what is left out on purpose (a rest's sibling, a hook's unused argument).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Kysely's own advice: a migration types its database as `any`, so that it never depends on the
    // schema of today. The database glue (dialects, the row inserter) and tests handle untyped rows.
    files: ['migrations/**', 'server/db/**', 'tests/support/**', '**/*.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The plain JavaScript of the tooling runs on Node.
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
