import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import mtLint from './tools/lint-checks/rules/no-import-cycle.mjs';

const ROOT = import.meta.dirname;

/**
 * Module boundaries. `type:*` says what a project is, `scope:*` whose it is:
 * - an app or lib of one service (scope:gateway, auth, catalog, registry, scrobble) uses only its own scope and shared libs;
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
  'scope:scrobble': ['scope:scrobble', 'scope:shared'],
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

/**
 * The catalog service's layers (apps/catalog-service/README.md, "Layout"): main → composition → http | workers
 * → features → domain ← data. Each zone names a folder (`target`) and what its production files may not import
 * (`from`); specs are drivers of the code beside them and may set up any layer.
 * - domain/: pure rules, vocabulary and the ports features need; it imports no other layer.
 * - data/ (with data/store-profile/) implements domain's ports; it imports domain only. migrations/ are data's
 *   start-up steps: domain and data, nothing above.
 * - features/: domain only. They reach the stores through the ports domain declares, never data's classes.
 * - http/ and workers/: features and domain; data only through what composition hands them.
 * - composition/: everything below it; main.ts: only composition.
 */
const CATALOG = 'apps/catalog-service/src';
const catalogLayer = (name) => `${CATALOG}/${name}`;
const CATALOG_LAYERS = ['main.ts', 'composition', 'http', 'workers', 'features', 'domain', 'data', 'migrations'];
const CATALOG_MAY_IMPORT = {
  'main.ts': ['composition'],
  composition: ['http', 'workers', 'features', 'domain', 'data', 'migrations'],
  http: ['features', 'domain'],
  workers: ['features', 'domain'],
  features: ['domain'],
  domain: [],
  data: ['domain'],
  migrations: ['data', 'domain'],
};
export const CATALOG_LAYER_ZONES = Object.entries(CATALOG_MAY_IMPORT).flatMap(([layer, allowed]) =>
  CATALOG_LAYERS.filter((other) => other !== layer && !allowed.includes(other)).map((other) => ({
    target: catalogLayer(layer),
    from: catalogLayer(other),
    message: `${layer} may import only ${allowed.length ? allowed.join(', ') : 'itself'} (main → composition → http | workers → features → domain ← data).`,
  })),
);

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  prettier,
  { ignores: ['**/dist', '**/node_modules', '**/.nx', 'bench/results', '**/*.cjs', '**/*.mjs', 'tools/lint-checks/fixtures'] },
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': ['error', boundaries(PRODUCTION_TYPES)],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // No import cycle inside an app or lib, a circle closed by a type-only import included (tools/lint-checks).
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { mt: mtLint },
    rules: { 'mt/no-import-cycle': ['error', { workspaceRoot: ROOT }] },
  },
  {
    // Named wiring everywhere: a class whose constructor takes more than five positional parameters
    // serves more than one audience, or wants one object of named dependencies.
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MethodDefinition[kind='constructor'] > FunctionExpression[params.length>5]",
          message: 'A constructor takes at most five positional parameters: pass one object of named dependencies.',
        },
      ],
    },
  },
  {
    // Small modules in the catalog service: a file over 300 lines serves more than one audience.
    files: [`${CATALOG}/**/*.ts`],
    ignores: ['**/*.spec.ts'],
    rules: { 'max-lines': ['error', { max: 300 }] },
  },
  {
    files: [`${CATALOG}/**/*.ts`],
    ignores: ['**/*.spec.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${ROOT}/tsconfig.base.json` })] },
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones: CATALOG_LAYER_ZONES }] },
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
