// One lint setup for every workspace: typescript-eslint's recommended rules, strict where it pays.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.tools/**',
      '.data/**',
      'proto/gen/**',
      'test-output/**',
      'charts/**',
      'tests/load/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: [
      'tests/**',
      'deploy/**',
      '**/*.test.ts',
      '**/*.config.*',
      '**/bin/**',
      'services/server/src/main.ts',
      'services/server/src/serve.ts',
      'services/server/src/commands.ts',
    ],
    rules: { 'no-console': 'off' },
  },
);
