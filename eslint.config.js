import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const nodeBuiltins = ['node:*', 'fs', 'path', 'crypto', 'os', 'child_process', 'stream', 'buffer', 'zlib', 'url', 'util'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // The engine is pure: bytes in, bytes out. No I/O, no Node-only APIs, nothing of ours.
  {
    files: ['src/docx/**/*.ts'],
    ignores: ['src/docx/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: nodeBuiltins, message: 'src/docx is pure TypeScript: no Node-only APIs.' },
          { group: ['**/service/**', '**/app/**'], message: 'src/docx depends on nothing of ours but src/contract.' },
        ],
      }],
    },
  },
  // The wire contract imports nothing of ours.
  {
    files: ['src/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/service/**', '**/app/**', '**/docx/**', ...nodeBuiltins], message: 'src/contract imports nothing of ours.' }] }],
    },
  },
  // The SPA talks to the service only over HTTP through src/contract.
  {
    files: ['src/app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/service/**', '**/docx/**', ...nodeBuiltins], message: 'The app imports only src/contract of ours.' }] }],
    },
  },
  // What ships never imports the test tree: src/ holds the product, test/ the machinery that tries it.
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/test/**'], message: 'src/ ships; test machinery lives in test/.' }] }],
    },
  },
  // The test tree tries the product from outside: it may import src/, never the app's React code.
  {
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['react', 'react-dom', '**/app/**'], message: 'test/ drives the service and the engine; the app is tried through e2e/.' }] }],
    },
  },
  // The service never imports React or the app.
  {
    files: ['src/service/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['react', 'react-dom', '**/app/**'], message: 'The service never imports the app.' }] }],
    },
  },
);
