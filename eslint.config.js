import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';
import { readdirSync } from 'node:fs';

// [Note: Layers checked by lint]
// The house of the README, as rules: screens (src/app) compose features, features call the ports, and only
// src/backend/create-backend.ts picks an adapter (local, supabase, s3, and the link backends in backend/link).
// The backend never reaches up into the upload engine, the features or the screens; small helpers (lib, ui,
// media, config) reach up into nothing but the domain's words; the service worker (src/sw) uses lib and the
// stores it owns, never an adapter. Test support (src/testing) is for tests only. A zone's `target` is the
// importing file, its `from` what it may not import.
// Features stand side by side: one imports another only where it is made of it (the allow-list below); what
// several share (query keys, the live-update hub, object URLs, members, permissions) lives below them, in
// src/shared, src/lib and src/ui.
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
const composes = {
  'app-update': ['uploads'], // a reload waits for the uploads
  devices: ['uploads'], // signing out asks about unfinished uploads
  invites: ['members'], // an invitation names a role
  items: ['social'], // a tile shows its comment and heart counts
  'link-page': ['items', 'downloads', 'uploads'], // the public page: the grid, downloads, guests' uploads
  'share-inbox': ['albums', 'uploads'], // files shared into the app go to an album's uploads
  viewer: ['items', 'social', 'downloads'], // an item, its comments and hearts, its download
};
const featureZones = features.map((f) => ({
  target: `./src/features/${f}`,
  from: features.filter((o) => o !== f && !(composes[f] ?? []).includes(o)).map((o) => `./src/features/${o}`),
  message: `features/${f} may import only the features it is made of (composes in eslint.config.js); what features share lives in src/shared.`,
}));
const outsideBackend = ['./src/app', './src/features', './src/shared', './src/lib', './src/ui', './src/media', './src/upload', './src/sw', './src/main.tsx', './src/config.ts'];
const backendCore = ['./src/backend/ports.ts', './src/backend/link-types.ts', './src/backend/lazy-port.ts', './src/backend/backend-context.tsx'];
const layerZones = [
  { target: './src/backend', from: ['./src/upload', './src/features', './src/shared', './src/app', './src/media', './src/ui'], message: 'The backend imports neither the upload engine, the features, the media pipeline nor the screens.' },
  { target: './src/shared', from: ['./src/features', './src/app'], message: 'src/shared lies below the features: it imports no feature and no screen.' },
  ...featureZones,
  { target: './src/features', from: './src/app', message: 'Features do not import screens.' },
  { target: ['./src/lib', './src/ui', './src/media', './src/upload', './src/config.ts'], from: ['./src/app', './src/features', './src/shared'], message: 'Lower layers do not import features, what features share, or screens.' },
  { target: ['./src/lib', './src/config.ts'], from: ['./src/ui', './src/media', './src/upload', './src/backend/backend-context.tsx'], message: 'src/lib holds small pure helpers.' },
  { target: ['./src/lib', './src/ui', './src/media'], from: './src/backend', message: 'The domain\'s words are in src/domain: helpers, primitives and the media pipeline need no backend.' },
  { target: './src/domain', from: ['./src/app', './src/features', './src/backend', './src/lib', './src/ui', './src/media', './src/upload', './src/sw', './src/config.ts'], message: 'The domain\'s words (src/domain) depend on nothing.' },
  { target: './src/sw', from: ['./src/backend', './src/features', './src/app', './src/media', './src/ui'], message: 'The service worker uses src/lib and the stores it owns, never an adapter, a feature or a screen.' },
  // Only create-backend.ts chooses an adapter. The Supabase backend composes the S3 files adapter (its files
  // live in a bucket reached through S3), and the link backends are built on the S3 classes and Supabase's
  // rows, so those may import them.
  ...[
    ['./src/backend/local', ['./src/backend/supabase', './src/backend/s3', './src/backend/link']],
    ['./src/backend/supabase', ['./src/backend/local']],
    ['./src/backend/s3', ['./src/backend/local']],
    ['./src/backend/link', ['./src/backend/local', './src/backend/supabase', './src/backend/s3']],
  ].map(([adapter, others]) => ({
    target: [...outsideBackend, ...backendCore, ...others],
    from: adapter,
    message: 'Only src/backend/create-backend.ts imports an adapter; everything else goes through the ports.',
  })),
  { target: './src', from: './src/testing', message: 'Test support (src/testing) is for tests only.' },
];

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
    files: ['src/backend/supabase/**', 'src/backend/s3/**', 'src/testing/**', 'tests/**', 'bench/**', 'scripts/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  // The layers, for production code: tests and test support may reach anything they exercise.
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}', 'src/testing/**'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', {
        zones: layerZones,
      }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
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
