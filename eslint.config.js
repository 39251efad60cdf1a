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
    // A verb's sweep.ts (its rows for the every-command test sweeps, test/helpers/sweeps.ts) and its
    // *.test.ts are test-only: nothing else in src/ imports them (so the build never bundles them), and
    // nothing else in src/ imports from test/.
    files: ['src/**'],
    ignores: ['src/commands/**/sweep.ts', 'src/commands/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'undici', message: 'All network goes through src/http.' }],
          patterns: [
            {
              group: ['**/sweep.js', '**/sweep'],
              message: "A verb's sweep.ts is test-only (CONTRIBUTING.md).",
            },
            { group: ['**/test/**'], message: 'src/ never imports test code.' },
          ],
        },
      ],
    },
  },
  {
    // Below commands/, each layer takes what it needs through ports it defines itself
    // (src/publishing/ports.ts, src/sites/ports.ts, lib/input-files.ts's StdinReader): none imports commands/
    // or the factory, which starts the sandbox for --sandbox (CONTRIBUTING.md, "Layout").
    files: ['src/**'],
    ignores: ['src/cli.ts', 'src/cli/**', 'src/commands/**', 'src/factory.ts', 'src/help-entry.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'undici', message: 'All network goes through src/http.' }],
          patterns: [
            {
              group: ['**/sweep.js', '**/sweep'],
              message: "A verb's sweep.ts is test-only (CONTRIBUTING.md).",
            },
            { group: ['**/test/**'], message: 'src/ never imports test code.' },
            {
              regex: String.raw`(^|/)(commands/|factory\.js$)`,
              message:
                'Below commands/, a layer defines the ports it needs and never imports commands/ or the factory (CONTRIBUTING.md, "Layout").',
            },
          ],
        },
      ],
    },
  },
  {
    // The sandbox imports only schemas/, wordpress/ and leaf modules (CONTRIBUTING.md, "Layout"), never the
    // CLI's config, commands or publishing.
    files: ['src/sandbox/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'undici', message: 'All network goes through src/http.' }],
          patterns: [
            {
              regex: String.raw`^\.\./(?!(?:schemas|wordpress|lib)/|errors\.js$)`,
              message:
                'The sandbox imports only schemas/, wordpress/ and leaf modules (CONTRIBUTING.md, "Layout").',
            },
          ],
        },
      ],
    },
  },
  {
    // A command that tests the raw --json option itself skips the field checks and once printed text for
    // `blogctl --json <command>`: every command reads it through jsonOutput() (src/output/json.ts).
    files: ['src/commands/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            ":matches(IfStatement, ConditionalExpression) > MemberExpression.test[property.name='json'], :matches(LogicalExpression, UnaryExpression) > MemberExpression[property.name='json']",
          message: 'Read --json through jsonOutput() from src/output/json.ts, not by testing the option.',
        },
        {
          selector: 'ImportExpression[source.value=/sweep(\\.js)?$/]',
          message: "A verb's sweep.ts is test-only (CONTRIBUTING.md).",
        },
      ],
    },
  },
  {
    files: ['src/http/**', 'test/**', 'scripts/**', 'src/commands/**/*.test.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
