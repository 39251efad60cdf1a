import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'completions/', 'coverage/', '.bench/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        structuredClone: 'readonly',
        performance: 'readonly',
        URLSearchParams: 'readonly',
        setImmediate: 'readonly',
        queueMicrotask: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'undici', message: 'All network goes through src/http.' }] },
      ],
    },
  },
  {
    // The sandbox imports only schemas/, wordpress/ and leaf modules (STYLE.md), never the CLI's config,
    // commands or publishing.
    files: ['src/sandbox/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'undici', message: 'All network goes through src/http.' }],
          patterns: [
            {
              regex: String.raw`^\.\./(?!(?:schemas|wordpress)/|errors\.js$|file-lock\.js$)`,
              message: 'The sandbox imports only schemas/, wordpress/ and leaf modules (STYLE.md).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/http/**', 'test/**', 'scripts/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
