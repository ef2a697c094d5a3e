// ESLint for the whole tree: the type-checked recommended rules of typescript-eslint on everything tsconfig.json
// covers (src, test, bench, scripts), plus the two rules that catch this code base's usual slips: a promise nobody
// awaits or catches, and a switch over a union that forgets a member.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

// The webviews' scripts (media/) run in VS Code's webview, a browser page: these are the page's globals they use.
const webviewGlobals = Object.fromEntries(
  [
    'window',
    'document',
    'navigator',
    'performance',
    'self',
    'globalThis',
    'console',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'requestAnimationFrame',
    'cancelAnimationFrame',
    'getComputedStyle',
    'devicePixelRatio',
    'ResizeObserver',
    'URL',
    'atob',
    'HTMLInputElement',
    'HTMLTextAreaElement',
    'HTMLMediaElement',
    'MediaError',
    'Intl',
    'acquireVsCodeApi',
  ].map((name) => [name, 'readonly']),
);

// Node's globals for the plain .mjs/.cjs scripts, which are outside tsconfig.json and so are linted without types.
const nodeGlobals = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    'URL',
    'URLSearchParams',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'clearImmediate',
    'queueMicrotask',
    'structuredClone',
    'AbortController',
    'AbortSignal',
    'TextEncoder',
    'TextDecoder',
    'performance',
    'fetch',
    'globalThis',
    'WebAssembly',
  ].map((name) => [name, 'readonly']),
);
const commonJsGlobals = {
  require: 'readonly',
  module: 'writable',
  exports: 'writable',
  __dirname: 'readonly',
  __filename: 'readonly',
};

export default defineConfig(
  {
    ignores: [
      'dist/**',
      'out/**',
      'build/**',
      'packages/**',
      '**/node_modules/**',
      '.test-data/**',
      'bench/results/**',
      // Its own package (code-server's test runner), with its own dependencies and module rules.
      'test/vscode-host/**',
      // Fixtures whose exact text a test reads (not code that runs).
      'test/api/fixtures/**',
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          // node:test's describe/it/test return promises that the runner itself awaits; writing `void` before
          // each of them would be noise, not safety.
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: [
                'describe',
                'it',
                'test',
                'suite',
                'before',
                'after',
                'beforeEach',
                'afterEach',
                'only',
                'skip',
                'todo',
              ],
            },
          ],
        },
      ],
      // A `default:` branch is this code's explicit choice for "every other member"; without it, every member
      // must have its case.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // This code implements async interfaces (a synthesizer's synthesize, a recording's write, an API's getApiKey,
      // test doubles) with bodies that need not wait, on purpose: `async` makes a throw in them a rejection, as
      // callers expect of a promise-returning function. The rule's remedy, dropping `async`, would turn those into
      // synchronous throws, so it is off.
      '@typescript-eslint/require-await': 'off',
      // Rejecting with what was caught, or with an AbortSignal's reason, hands the original error on unchanged
      // (the same as `throw error` in a catch, which only-throw-error allows); a new non-Error value is still refused.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      // The native addons and the WebAssembly ffmpeg core are loaded with require() when first needed (and stay
      // outside the bundles, see scripts/build.mjs): loading them at import time would fail on a platform without
      // them before the error could be told.
      '@typescript-eslint/no-require-imports': [
        'error',
        { allow: ['^@ffmpeg/core$', '^sherpa-onnx-node(/addon\\.js)?$'] },
      ],
      // A `let` that closures made before its one assignment read (the WebAssembly memory of wasi-command.ts) cannot be
      // a const there.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // `_` marks an argument or binding kept for its position (a callback's signature, a destructured rest).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
        },
      ],
    },
  },
  {
    // Tests and benchmarks read JSON bodies, parsed files and mocked modules as `any` by design: their assertions
    // are the type check. The no-unsafe-* rules would ask for a cast on every `body.foo`, so they are off here,
    // and only here; src/ keeps them.
    files: ['test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      // The same reason: `as any` is how a test reaches a private field or builds a deliberately broken request.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // Plain JavaScript outside tsconfig.json: the build and test scripts, the scripted engines, this file.
    files: ['**/*.mjs', '**/*.cjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: nodeGlobals },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...nodeGlobals, ...commonJsGlobals } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The webviews' scripts: browser JavaScript (checked by `// @ts-check` in the editor, not by tsconfig.json).
    files: ['media/**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    // grid-logic.js also exports its rules to the unit test through CommonJS's `module` when it has one.
    languageOptions: { sourceType: 'script', globals: { ...webviewGlobals, module: 'readonly' } },
  },
);
