import { configVariables, RUNTIME_VARIABLES } from './app-config';
import type { ComposeModel } from './compose';
import { COMPOSE_APPS } from './compose';
import { loadManifests, type DeploymentSpec } from './k8s-manifests';
import { APPS, readRepoFile, repoPath } from './repo';
import { parseYamlDocument } from './yaml-documents';

// A misspelt variable is silently ignored by the services (their schemas drop unknown keys) and the
// default applies instead: every variable the deployment files set must be one the app reads.
const variablesOf = new Map<string, Set<string>>(
  APPS.map(({ app }) => [app, new Set([...configVariables(app), ...RUNTIME_VARIABLES])]),
);
const unknownFor = (app: string, names: string[], extra: string[] = []) =>
  names.filter((name) => !variablesOf.get(app)!.has(name) && !extra.includes(name));

describe('deployment configuration matches what the apps read', () => {
  it('reads the variables of every app config', () => {
    expect([...variablesOf.get('gateway')!]).toEqual(
      expect.arrayContaining(['AUTH_URL', 'REGISTRY_URL', 'REDIS_URL']),
    );
    expect([...variablesOf.get('auth-service')!]).toEqual(
      expect.arrayContaining(['MONGO_URL', 'JWT_PRIVATE_KEY_FILE', 'JWT_KEY_DIR']),
    );
    expect([...variablesOf.get('catalog-service')!]).toEqual(
      expect.arrayContaining(['CATEGORY', 'INSTANCE_ID', 'ADVERTISED_URL', 'REGISTRY_URL', 'MONGO_DB_NAME']),
    );
  });

  const compose = parseYamlDocument(readRepoFile('docker-compose.yml'), 'docker-compose.yml') as ComposeModel;
  it.each(Object.entries(COMPOSE_APPS))(
    'compose service %s sets only variables its app reads',
    (service, { app }) => {
      const names = Object.keys(compose.services[service].environment ?? {});
      expect(names.length).toBeGreaterThan(3);
      expect(unknownFor(app, names)).toEqual([]);
    },
  );

  const manifests = loadManifests(repoPath('deploy', 'k8s'));
  const deployments = manifests.filter((m) => m.object.kind === 'Deployment');
  it.each(deployments.map((d) => [d.object.metadata!.name!, d] as const))(
    'Kubernetes Deployment %s sets only variables its app reads',
    (_name, deployment) => {
      const container = (deployment.object['spec'] as DeploymentSpec).template.spec.containers[0];
      const app = container.image!.split(':')[0].replace('media-tracker/', '');
      // POD_IP only feeds $(POD_IP) in ADVERTISED_URL.
      expect(
        unknownFor(
          app,
          (container.env ?? []).map((e) => e.name),
          ['POD_IP'],
        ),
      ).toEqual([]);
    },
  );

  it('the shared ConfigMap holds only variables some app reads', () => {
    const configMap = manifests.find((m) => m.object.kind === 'ConfigMap')!;
    const known = new Set([...variablesOf.values()].flatMap((set) => [...set]));
    const keys = Object.keys(configMap.object['data'] as Record<string, string>);
    expect(keys.filter((key) => !known.has(key))).toEqual([]);
  });
});

describe('docs/operations.md', () => {
  const docs = readRepoFile('docs', 'operations.md');
  /** The text of the section `### <app>` up to the next heading of the same or a higher level. */
  const sectionOf = (app: string) => {
    const start = docs.indexOf(`\n### ${app}\n`);
    if (start < 0) return '';
    const rest = docs.slice(start + 1);
    const end = rest.slice(4).search(/\n#{1,3} /);
    return end < 0 ? rest : rest.slice(0, end + 4);
  };

  it.each(APPS)('documents every variable $app reads, in its own section', ({ app }) => {
    const section = sectionOf(app);
    expect(section).not.toBe('');
    const missing = configVariables(app).filter((name) => !new RegExp(`\\|\\s*\`${name}\``).test(section));
    expect(missing).toEqual([]);
  });

  it('documents every metric the services export', () => {
    const metrics = readRepoFile('libs', 'shared', 'metrics', 'src', 'metrics.ts');
    const names = [...metrics.matchAll(/name: '([a-z_]+)'/g)].map((match) => match[1]);
    expect(names.length).toBeGreaterThanOrEqual(6);
    expect(names.filter((name) => !docs.includes(`\`${name}`))).toEqual([]);
  });
});
