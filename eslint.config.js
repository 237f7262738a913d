import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';

const nodeOnly = ['fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'path', 'node:path', 'child_process',
  'node:child_process', 'net', 'node:net', 'http', 'node:http', 'https', 'node:https', 'os', 'node:os',
  'worker_threads', 'node:worker_threads', 'process', 'node:process'];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'bench/.work/**', 'fixtures/generated/**', '**/.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
    },
  },
  {
    // The web app's components: the accessibility rules (labels, roles, keyboard reachability).
    files: ['apps/web/src/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // MUI fields take autoFocus where a dialog opens on its one field (the ARIA dialog pattern moves
      // focus into it); plain DOM elements still may not steal focus.
      'jsx-a11y/no-autofocus': ['error', { ignoreNonDOM: true }],
    },
  },
  {
    // The web app's hooks and components: the React hooks rules (v7 recommended: rules of hooks,
    // dependencies, and the compiler's checks such as no state set synchronously in an effect).
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    // Server state is keyed from one factory, so related answers are invalidated together.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/api/queryKeys.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': ['error', { selector: "Property[key.name='queryKey'] > ArrayExpression", message: 'Query keys come from api/queryKeys.ts.' }],
    },
  },
  {
    // The store imports every slice: a slice importing the store (even for its RootState type) is an
    // import cycle. Slices declare the part of the state their selectors read (`WithWizard`).
    files: ['apps/web/src/**/*Slice.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/app/store*', '**/app/hooks*'], message: 'A slice must not import the store (import cycle); type the state it reads locally.' }] }],
    },
  },
  {
    // The engine is bytes in, bytes out: no file system, network, processes or env (tests and the
    // node/ adapter folder aside). Keeps it runnable in a browser and a worker alike.
    files: ['packages/engine/src/**/*.ts', 'packages/shared/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'packages/engine/src/node/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: nodeOnly.map((name) => ({ name, message: 'The engine has no I/O; pass bytes in.' })) }],
      'no-restricted-globals': ['error', { name: 'process', message: 'No env or process access in the engine.' }],
    },
  },
);
