// Regenerates tools/deploy-checks/schemas/kubernetes.schema.json: the JSON schemas of the Kubernetes
// kinds in deploy/k8s, so the manifests are validated offline (no cluster, no network at test time).
//
// Source: the npm packages kubernetes-models (MIT; generated from the Kubernetes OpenAPI spec) and
// @kubernetes-models/apimachinery, versions whose `_schemas/*.js` still hold plain JSON schemas
// (later versions ship precompiled validators instead). Usage, from the repository root:
//
//   cd /tmp && npm pack kubernetes-models@4.3.1 @kubernetes-models/apimachinery@1.2.2
//   mkdir km am && tar xzf kubernetes-models-4.3.1.tgz -C km && tar xzf kubernetes-models-apimachinery-1.2.2.tgz -C am
//   node tools/deploy-checks/scripts/vendor-k8s-schemas.mjs /tmp/km/package /tmp/am/package
//
// Transformations (documented in the output's $comment):
// - OpenAPI's `nullable: true` becomes a JSON-schema type union with "null";
// - `$ref: "io.k8s...#"` becomes a local `#/definitions/io.k8s...`;
// - strict: every object schema with `properties` and no `additionalProperties` gets
//   `additionalProperties: false`, like kubectl's strict field validation (a misspelt field such as
//   `readinesProbe` is an error instead of being silently dropped by the API server).
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { format, resolveConfig } from 'prettier';

const [modelsDir, apimachineryDir] = process.argv.slice(2);
if (!modelsDir || !apimachineryDir) {
  console.error(
    'usage: vendor-k8s-schemas.mjs <kubernetes-models package dir> <@kubernetes-models/apimachinery package dir>',
  );
  process.exit(2);
}

/** apiVersion/kind of every resource in deploy/k8s → the module that registers its schema. */
const KINDS = [
  { apiVersion: 'apps/v1', kind: 'Deployment', module: 'IoK8sApiAppsV1Deployment' },
  { apiVersion: 'v1', kind: 'Service', module: 'IoK8sApiCoreV1Service' },
  { apiVersion: 'v1', kind: 'ConfigMap', module: 'IoK8sApiCoreV1ConfigMap' },
  { apiVersion: 'v1', kind: 'Secret', module: 'IoK8sApiCoreV1Secret' },
  {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    module: 'IoK8sApiAutoscalingV2HorizontalPodAutoscaler',
  },
  { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', module: 'IoK8sApiPolicyV1PodDisruptionBudget' },
];

const packageJson = (dir) => JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
const models = packageJson(modelsDir);
const apimachinery = packageJson(apimachineryDir);
const kubernetesVersion = readFileSync(path.join(modelsDir, 'README.md'), 'utf8').match(
  /kubernetes-(\d+\.\d+\.\d+)/,
)?.[1];

// Lay the packages out as node_modules, with a stand-in for @kubernetes-models/validate that records
// each registered schema instead of compiling it.
const work = mkdtempSync(path.join(os.tmpdir(), 'k8s-schemas-'));
const nodeModules = path.join(work, 'node_modules');
cpSync(modelsDir, path.join(nodeModules, 'kubernetes-models'), { recursive: true });
cpSync(apimachineryDir, path.join(nodeModules, '@kubernetes-models/apimachinery'), { recursive: true });
mkdirSync(path.join(nodeModules, '@kubernetes-models/validate'), { recursive: true });
writeFileSync(
  path.join(nodeModules, '@kubernetes-models/validate/index.js'),
  'exports.register = (id, schema) => { globalThis.__k8sSchemas.set(id, schema); };\n',
);
globalThis.__k8sSchemas = new Map();
const requireFromWork = createRequire(path.join(work, 'index.js'));

const roots = {};
for (const { apiVersion, kind, module } of KINDS) {
  const before = new Set(globalThis.__k8sSchemas.keys());
  requireFromWork(path.join(nodeModules, `kubernetes-models/_schemas/${module}.js`)).addSchema();
  const id = [...globalThis.__k8sSchemas.keys()].find((key) => !before.has(key) && key.endsWith(`.${kind}`));
  if (!id) throw new Error(`no schema registered for ${apiVersion} ${kind}`);
  roots[`${apiVersion}/${kind}`] = id;
}
rmSync(work, { recursive: true, force: true });

function toJsonSchema(node) {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'nullable') continue;
    if (key === '$ref' && typeof value === 'string') out[key] = `#/definitions/${value.replace(/#$/, '')}`;
    else out[key] = toJsonSchema(value);
  }
  if (node.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  const isObject = out.type === 'object' || (Array.isArray(out.type) && out.type.includes('object'));
  if (isObject && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

const definitions = Object.fromEntries(
  [...globalThis.__k8sSchemas.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, schema]) => [id, toJsonSchema(schema)]),
);

const output = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://media-tracker.invalid/deploy-checks/kubernetes.schema.json',
  title: `Kubernetes ${kubernetesVersion} schemas of the kinds used in deploy/k8s`,
  $comment: [
    `Generated by tools/deploy-checks/scripts/vendor-k8s-schemas.mjs from the npm packages`,
    `${models.name}@${models.version} (${models.license}, Kubernetes ${kubernetesVersion} OpenAPI) and`,
    `${apimachinery.name}@${apimachinery.version} (${apimachinery.license}).`,
    'Changes: nullable → type union with null; refs made local; objects with properties are strict',
    '(additionalProperties: false). Do not edit by hand: regenerate.',
  ].join(' '),
  'x-source': {
    kubernetes: kubernetesVersion,
    packages: { [models.name]: models.version, [apimachinery.name]: apimachinery.version },
  },
  /** apiVersion/kind → definition. */
  'x-kinds': roots,
  definitions,
};
const target = path.resolve('tools/deploy-checks/schemas/kubernetes.schema.json');
mkdirSync(path.dirname(target), { recursive: true });
// Formatted like the rest of the repository, so `npm run format` leaves the generated file alone.
const prettierOptions = (await resolveConfig(target)) ?? {};
writeFileSync(target, await format(JSON.stringify(output), { ...prettierOptions, filepath: target }));
console.log(
  `wrote ${target}: ${Object.keys(definitions).length} definitions for ${Object.keys(roots).join(', ')}`,
);
