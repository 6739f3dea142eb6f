import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'bench/results', 'test-results', 'playwright-report', 'supabase/functions'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['@supabase/*', '@aws-sdk/*'], message: 'Only src/backend/<adapter>/ may import a backend SDK.' }],
      }],
    },
  },
  {
    files: ['src/backend/supabase/**', 'src/backend/s3/**', 'tests/**', 'bench/**', 'scripts/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Every console call goes through src/lib/log.ts, which strips query strings (credentials) from URLs.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/lib/log.ts', 'src/testing/**', 'src/**/*.test.{ts,tsx}'],
    rules: { 'no-console': 'error' },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
