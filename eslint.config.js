// Lint rules, including the import rules of DESIGN.md: each folder may only reach the
// layers below it, so a wrong arrow fails CI instead of waiting for review.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const layer = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }],
});

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'release/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { ecmaVersion: 2023, sourceType: 'module' } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['scripts/**/*.mjs', '*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    files: ['shared/**/*.ts'],
    rules: layer(
      ['**/exchange/**', '**/electron/**', '**/renderer/**', 'node:*', 'electron', 'react'],
      'shared/ runs anywhere and imports nothing of ours (DESIGN.md).',
    ),
  },
  {
    files: ['exchange/**/*.ts'],
    rules: layer(
      ['**/electron/**', '**/renderer/**', 'electron'],
      'exchange/ may import shared/ only (DESIGN.md).',
    ),
  },
  {
    files: ['electron/core/**/*.ts'],
    ignores: ['electron/core/**/*.test.ts'],
    rules: layer(
      ['**/renderer/**', '**/exchange/**', 'electron'],
      'electron/core/ is plain Node: shared/ only, no electron import (DESIGN.md).',
    ),
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    rules: layer(
      ['**/exchange/**', '**/electron/**', 'node:*', 'electron'],
      'renderer/ reaches main only through the bridge; it may import shared/ only (DESIGN.md).',
    ),
  },
);
