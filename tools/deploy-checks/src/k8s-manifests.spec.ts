import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import {
  checkKustomization,
  checkManifests,
  loadManifests,
  type Container,
  type DeploymentSpec,
  type HpaSpec,
  type Manifest,
  type ServiceSpec,
} from './k8s-manifests';
import { createK8sValidator, type K8sObject } from './k8s-schema';
import { findBinary, PACKAGE_VERSION, repoPath } from './repo';
import { parseYamlDocuments } from './yaml-documents';

const K8S_DIR = repoPath('deploy', 'k8s');
const manifests = loadManifests(K8S_DIR);
const validate = createK8sValidator();
const label = (m: Manifest) => `${m.file}: ${m.object.kind} ${m.object.metadata?.name ?? ''}`.trim();

/** A deep copy of the manifests with one object changed, for the cases that must fail. */
function withChange(kind: string, name: string, change: (object: K8sObject) => void): Manifest[] {
  const copy: Manifest[] = structuredClone(manifests);
  const target = copy.find((m) => m.object.kind === kind && m.object.metadata?.name === name);
  if (!target) throw new Error(`no ${kind} ${name}`);
  change(target.object);
  return copy;
}
const spec = <T>(object: K8sObject) => object['spec'] as T;
const container = (deployment: K8sObject): Container =>
  spec<DeploymentSpec>(deployment).template.spec.containers[0];
const envOf = (deployment: K8sObject) => container(deployment).env!;
const find = (copy: Manifest[], kind: string, name: string) =>
  copy.find((m) => m.object.kind === kind && m.object.metadata?.name === name)!.object;

describe('deploy/k8s manifests', () => {
  it('has the resources of every app', () => {
    const kinds = manifests.map((m) => `${m.object.kind}/${m.object.metadata?.name}`);
    for (const name of [
      'gateway',
      'auth',
      'registry',
      'catalog-movies',
      'catalog-tvshows',
      'catalog-books',
    ]) {
      expect(kinds).toEqual(
        expect.arrayContaining([`Deployment/${name}`, `Service/${name}`, `PodDisruptionBudget/${name}`]),
      );
    }
    for (const name of ['gateway', 'catalog-movies', 'catalog-tvshows', 'catalog-books']) {
      expect(kinds).toContain(`HorizontalPodAutoscaler/${name}`);
    }
    expect(kinds).toEqual(
      expect.arrayContaining(['ConfigMap/media-tracker-config', 'Secret/media-tracker-secrets']),
    );
  });

  it.each(manifests.map((m) => [label(m), m] as const))(
    '%s validates against the Kubernetes schema',
    (_label, manifest) => {
      expect(validate(manifest.object)).toEqual([]);
    },
  );

  it('passes the semantic checks (probes, resources, security, Services, HPAs, catalog identity)', () => {
    expect(checkManifests(manifests)).toEqual([]);
  });

  it('lists every manifest in kustomization.yaml except the Secret example', () => {
    expect(checkKustomization(manifests, readdirSync(K8S_DIR))).toEqual([]);
  });

  const kubectl = findBinary('kubectl');
  if (!kubectl) console.warn('kubectl not on PATH: the `kubectl kustomize` build check is skipped');
  (kubectl ? it : it.skip)(
    'builds with kubectl kustomize (offline), and every built object validates',
    () => {
      const built = execFileSync(kubectl!, ['kustomize', K8S_DIR], { encoding: 'utf8', timeout: 60_000 });
      const objects = parseYamlDocuments(built, 'kubectl kustomize') as K8sObject[];
      expect(objects).toHaveLength(
        manifests.filter((m) => !['Kustomization', 'Secret'].includes(m.object.kind!)).length,
      );
      for (const object of objects)
        expect({ name: object.metadata?.name, problems: validate(object) }).toEqual({
          name: object.metadata?.name,
          problems: [],
        });
      expect(
        objects.every((o) => o.metadata?.labels?.['app.kubernetes.io/part-of'] === 'media-tracker'),
      ).toBe(true);
    },
  );
});

describe('the manifest checks catch what matters', () => {
  it('rejects a misspelt field through the strict schema', () => {
    const copy = withChange('Deployment', 'gateway', (d) => {
      const c = container(d) as Container & Record<string, unknown>;
      c['readinesProbe'] = c.readinessProbe;
      delete c.readinessProbe;
    });
    expect(validate(find(copy, 'Deployment', 'gateway'))).toEqual(
      expect.arrayContaining([expect.stringContaining('must NOT have additional properties')]),
    );
  });

  it('rejects a wrongly typed value through the schema', () => {
    const copy = withChange('HorizontalPodAutoscaler', 'gateway', (h) => {
      (spec<HpaSpec>(h) as unknown as Record<string, unknown>)['minReplicas'] = 'two';
    });
    expect(validate(find(copy, 'HorizontalPodAutoscaler', 'gateway'))).toEqual(
      expect.arrayContaining(['/spec/minReplicas must be integer,null']),
    );
  });

  it.each<[string, string, string, (object: K8sObject) => void, string]>([
    [
      'a liveness probe on /readyz',
      'Deployment',
      'registry',
      (d) => (container(d).livenessProbe!.httpGet!.path = '/readyz'),
      'livenessProbe probes /readyz, expected /livez',
    ],
    [
      'a missing startup probe',
      'Deployment',
      'auth',
      (d) => delete container(d).startupProbe,
      'no startupProbe',
    ],
    [
      'a probe on a port the container does not have',
      'Deployment',
      'gateway',
      (d) => (container(d).readinessProbe!.httpGet!.port = 9090),
      'readinessProbe port 9090 is not a port',
    ],
    [
      'a memory limit under 256Mi',
      'Deployment',
      'catalog-books',
      (d) => (container(d).resources!.limits!['memory'] = '128Mi'),
      'below 256Mi',
    ],
    [
      'an auth memory limit without room for argon2',
      'Deployment',
      'auth',
      (d) => (container(d).resources!.limits!['memory'] = '300Mi'),
      'concurrent argon2 hashes',
    ],
    [
      "NODE_OPTIONS without the images' young-generation size",
      'Deployment',
      'catalog-movies',
      (d) => (container(d).env!.find((variable) => variable.name === 'NODE_OPTIONS')!.value = '--max-old-space-size=192'),
      "must keep the image's --max-semi-space-size=8",
    ],
    [
      "the services' young generation in the gateway",
      'Deployment',
      'gateway',
      (d) => (container(d).env!.find((variable) => variable.name === 'NODE_OPTIONS')!.value = '--max-old-space-size=192 --max-semi-space-size=8'),
      "must keep the image's --max-semi-space-size=16",
    ],
    ['no preStop sleep', 'Deployment', 'gateway', (d) => delete container(d).lifecycle, 'preStop sleep'],
    [
      'a short grace period',
      'Deployment',
      'gateway',
      (d) => (spec<DeploymentSpec>(d).template.spec.terminationGracePeriodSeconds = 10),
      'terminationGracePeriodSeconds 10',
    ],
    [
      'a writable root filesystem',
      'Deployment',
      'registry',
      (d) => (container(d).securityContext!.readOnlyRootFilesystem = false),
      'readOnlyRootFilesystem',
    ],
    [
      'capabilities kept',
      'Deployment',
      'registry',
      (d) => (container(d).securityContext!.capabilities!.drop = []),
      'drop ALL',
    ],
    [
      'fixed replicas on an autoscaled Deployment',
      'Deployment',
      'catalog-movies',
      (d) => (spec<DeploymentSpec>(d).replicas = 3),
      'spec.replicas must be left to the HPA',
    ],
    [
      'ADVERTISED_URL before POD_IP',
      'Deployment',
      'catalog-tvshows',
      (d) => {
        const env = envOf(d);
        const podIp = env.findIndex((e) => e.name === 'POD_IP');
        env.push(...env.splice(podIp, 1));
      },
      'POD_IP must be defined before ADVERTISED_URL',
    ],
    [
      'a catalog advertising a shared name',
      'Deployment',
      'catalog-movies',
      (d) => {
        const id = envOf(d).find((e) => e.name === 'INSTANCE_ID')!;
        delete id.valueFrom;
        id.value = 'catalog-movies';
      },
      'INSTANCE_ID must come from the pod name',
    ],
    [
      'a secret as a literal',
      'Deployment',
      'registry',
      (d) => {
        const secret = envOf(d).find((e) => e.name === 'INTERNAL_SECRET')!;
        delete secret.valueFrom;
        secret.value = 'x'.repeat(32);
      },
      'must come from a Secret',
    ],
    [
      'a missing secret key',
      'Deployment',
      'gateway',
      (d) => {
        envOf(d).find((e) => e.name === 'REDIS_URL')!.valueFrom!.secretKeyRef!.key = 'REDIS_URI';
      },
      'missing secret key media-tracker-secrets/REDIS_URI',
    ],
    [
      'a container without a port named metrics',
      'Deployment',
      'registry',
      (d) => (container(d).ports = container(d).ports!.filter((p) => p.name !== 'metrics')),
      'a container port named metrics must be METRICS_PORT (9464)',
    ],
    [
      'annotations that scrape the API port',
      'Deployment',
      'catalog-movies',
      (d) => (spec<DeploymentSpec>(d).template.metadata!.annotations!['prometheus.io/port'] = '3011'),
      'prometheus.io/port must be the metrics port 9464',
    ],
    [
      'a readiness probe on the metrics port',
      'Deployment',
      'auth',
      (d) => (container(d).readinessProbe!.httpGet!.port = 'metrics'),
      'readinessProbe must probe the API port',
    ],
    [
      'a Service that exposes the metrics port',
      'Service',
      'gateway',
      (s) => spec<ServiceSpec>(s).ports!.push({ port: 9464, targetPort: 'metrics' }),
      'Service gateway: exposes the metrics port of gateway',
    ],
    [
      'a Service that selects nothing',
      'Service',
      'auth',
      (s) => (spec<ServiceSpec>(s).selector!['app.kubernetes.io/name'] = 'authn'),
      'Deployment auth: no Service selects its pods',
    ],
    [
      'an HPA pointing elsewhere',
      'HorizontalPodAutoscaler',
      'gateway',
      (h) => (spec<HpaSpec>(h).scaleTargetRef.name = 'gw'),
      'Deployment gateway: no HorizontalPodAutoscaler',
    ],
  ])('rejects %s', (_case, kind, name, change, problem) => {
    expect(checkManifests(withChange(kind, name, change))).toEqual(
      expect.arrayContaining([expect.stringContaining(problem)]),
    );
  });

  it("rejects a kustomization whose image tag is not the package version (compose's IMAGE_TAG default)", () => {
    const copy: Manifest[] = structuredClone(manifests);
    const images = copy.find((m) => m.object.kind === 'Kustomization')!.object['images'] as Array<{
      name: string;
      newTag: string;
    }>;
    images.find((image) => image.name === 'media-tracker/gateway')!.newTag = 'latest';
    expect(checkKustomization(copy, readdirSync(K8S_DIR))).toEqual([
      `kustomization.yaml tags media-tracker/gateway latest, expected the package version ${PACKAGE_VERSION}`,
    ]);
  });

  it('rejects a kustomization that misses a file or applies the Secret example', () => {
    const copy: Manifest[] = structuredClone(manifests);
    const resources = copy.find((m) => m.object.kind === 'Kustomization')!.object['resources'] as string[];
    resources.splice(resources.indexOf('auth.yaml'), 1);
    resources.push('secret.example.yaml', 'ingress.yaml');
    expect(checkKustomization(copy, readdirSync(K8S_DIR))).toEqual([
      'kustomization.yaml does not list auth.yaml',
      'kustomization.yaml lists missing ingress.yaml',
      'kustomization.yaml applies the example secret.example.yaml',
    ]);
  });
});
