// One lint setup for every workspace: typescript-eslint's recommended rules, strict where it pays,
// the promise rules that need types (a forgotten await or a promise handed to an event listener
// is how a request ends a process), and React's rules of hooks for the frontends.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
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
    // Type-aware, and only for production code, where a floating promise ends a process or loses
    // an error: typed linting builds a TypeScript program per tsconfig. On all files it took
    // `eslint .` from ~17 s to ~100 s of CPU; limited to these, ~70 s. Each file is checked with
    // the nearest tsconfig that owns it (the root one, or a frontend's), found by the project
    // service; files outside every tsconfig (deploy/tools, the *.config.ts files) are not typed.
    files: [
      'services/*/src/**/*.ts',
      'services/*/bench/**/*.ts',
      'proto/src/**/*.ts',
      'frontends/*/src/**/*.ts',
      'frontends/*/src/**/*.tsx',
    ],
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/tests/**', 'deploy/**'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    // The classic rules of hooks only, both as errors so no warning lingers. Not v7's React
    // Compiler rules (set-state-in-effect, refs, purity, immutability…): they ask for a rewrite of
    // many working hooks, and the frontends are not compiled with the React Compiler.
    files: ['frontends/**/*.tsx', 'frontends/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
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
