import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';

/**
 * Module boundaries. `type:*` says what a project is, `scope:*` whose it is:
 * - an app or lib of one service (scope:gateway, auth, catalog, registry) uses only its own scope and shared libs;
 * - the clients (scope:cli, scope:web) reach the API only through the generated client (scope:client);
 * - end-to-end suites (scope:e2e) may use anything but an app's internals (apps are never imported);
 * - type:launcher is libs/stack, what `npm start` runs: it starts processes, so only the suites and tools use it.
 */
const PRODUCTION_TYPES = {
  'type:app': ['type:util', 'type:data-access', 'type:contracts'],
  'type:e2e': ['type:util', 'type:data-access', 'type:contracts', 'type:testing', 'type:launcher'],
  'type:launcher': ['type:util', 'type:data-access', 'type:contracts'],
  'type:data-access': ['type:util', 'type:data-access', 'type:contracts'],
  'type:contracts': ['type:util', 'type:contracts'],
  'type:util': ['type:util'],
  'type:testing': ['type:util', 'type:data-access', 'type:contracts', 'type:testing', 'type:launcher'],
};
/** Specs of every kind of project may also use the test helpers, the real stores and start a stack. */
const TEST_TYPES = Object.fromEntries(
  Object.entries(PRODUCTION_TYPES).map(([type, allowed]) => [type, [...new Set([...allowed, 'type:testing', 'type:launcher', 'type:data-access'])]]),
);
const SCOPES = {
  'scope:shared': ['scope:shared'],
  'scope:gateway': ['scope:gateway', 'scope:shared'],
  'scope:auth': ['scope:auth', 'scope:shared'],
  'scope:catalog': ['scope:catalog', 'scope:shared'],
  'scope:registry': ['scope:registry', 'scope:shared'],
  'scope:client': ['scope:client', 'scope:shared'],
  'scope:cli': ['scope:cli', 'scope:client', 'scope:shared'],
  'scope:web': ['scope:web', 'scope:client', 'scope:shared'],
  'scope:e2e': ['scope:e2e', 'scope:client', 'scope:shared', 'scope:catalog'],
  'scope:all-in-one': ['scope:all-in-one', 'scope:shared'],
};

function boundaries(types, { buildable = true } = {}) {
  return {
    // Apps are bundled whole (tools/build), so only production code is held to the buildable-lib rule.
    enforceBuildableLibDependency: buildable,
    allow: [],
    depConstraints: [
      ...Object.entries(types).map(([sourceTag, onlyDependOnLibsWithTags]) => ({ sourceTag, onlyDependOnLibsWithTags })),
      ...Object.entries(SCOPES).map(([sourceTag, onlyDependOnLibsWithTags]) => ({ sourceTag, onlyDependOnLibsWithTags })),
    ],
  };
}

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  prettier,
  { ignores: ['**/dist', '**/node_modules', '**/.nx', 'bench/results', '**/*.cjs', '**/*.mjs'] },
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', boundaries(PRODUCTION_TYPES)],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.spec.tsx', '**/*.int.spec.ts', '**/test/**/*.ts', '**/test/**/*.tsx'],
    // Tests obey the same boundaries, with the test helpers (type:testing) allowed to every kind of project.
    rules: { '@nx/enforce-module-boundaries': ['error', boundaries(TEST_TYPES, { buildable: false })], '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // Known exceptions, each with its reason:
    // - Jest global setup/teardown run before the module mapper exists: they import projects by relative path.
    // - docs-checks compiles the endpoint declarations it checks the docs against (no stack needed).
    // - the all-in-one host runs the four services' definitions in one process: its services.ts (and only
    //   that file) imports them from the apps, which the bundler inlines as it does the apps' own code.
    files: [
      'apps/all-in-one/src/services.ts',
      '**/test/global-setup.ts',
      '**/test/global-teardown.ts',
      'libs/testing/src/global-setup.ts',
      'tools/docs-checks/src/**/*.ts',
    ],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
];
