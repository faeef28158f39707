import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { nodeOptionsOf } from '@mt/stack';
import { cpuMillis, memoryBytes, type K8sObject } from './k8s-schema';
import { PACKAGE_VERSION } from './repo';
import { parseYamlDocuments } from './yaml-documents';

export interface Manifest {
  file: string;
  object: K8sObject;
}

/** Every object of every YAML file of a manifest directory (kustomization.yaml included). */
export function loadManifests(dir: string): Manifest[] {
  return readdirSync(dir)
    .filter((file) => /\.ya?ml$/.test(file))
    .sort()
    .flatMap((file) =>
      parseYamlDocuments(readFileSync(path.join(dir, file), 'utf8'), file).map((object) => ({
        file,
        object: object as K8sObject,
      })),
    );
}

// The parts of the Kubernetes types the semantic checks read (the schema has validated the shapes).
export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string; optional?: boolean };
    configMapKeyRef?: { name: string; key: string; optional?: boolean };
    fieldRef?: { fieldPath: string };
  };
}
export interface Probe {
  httpGet?: { path?: string; port: string | number };
  periodSeconds?: number;
  failureThreshold?: number;
  timeoutSeconds?: number;
}
export interface Container {
  name: string;
  image?: string;
  ports?: Array<{ name?: string; containerPort: number }>;
  env?: EnvVar[];
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  resources?: { requests?: Record<string, string | number>; limits?: Record<string, string | number> };
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command?: string[] }; sleep?: { seconds: number } } };
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    runAsNonRoot?: boolean;
    capabilities?: { drop?: string[] };
  };
  volumeMounts?: Array<{ name: string; mountPath: string }>;
}
export interface PodSpec {
  containers: Container[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  terminationGracePeriodSeconds?: number;
  automountServiceAccountToken?: boolean;
  volumes?: Array<{ name: string; secret?: { secretName: string; items?: Array<{ key: string }> } }>;
}
export interface DeploymentSpec {
  replicas?: number;
  selector: { matchLabels?: Record<string, string> };
  template: {
    metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
    spec: PodSpec;
  };
}
export interface ServiceSpec {
  selector?: Record<string, string>;
  ports?: Array<{ port: number; targetPort?: string | number }>;
}
export interface HpaSpec {
  scaleTargetRef: { apiVersion?: string; kind: string; name: string };
  minReplicas?: number;
  maxReplicas: number;
  metrics?: Array<{ type: string; resource?: { name: string } }>;
}

const specOf = <T>(manifest: Manifest): T => manifest.object['spec'] as T;
const nameOf = (manifest: Manifest): string => manifest.object.metadata?.name ?? '(unnamed)';
const ofKind = (manifests: Manifest[], kind: string) => manifests.filter((m) => m.object.kind === kind);
const selects = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
  !!selector &&
  Object.keys(selector).length > 0 &&
  Object.entries(selector).every(([k, v]) => labels?.[k] === v);

/** The Deployments the stack needs: one per app, one per shipped catalog category. */
export const REQUIRED_DEPLOYMENTS = {
  gateway: { image: 'media-tracker/gateway', autoscaled: true },
  auth: { image: 'media-tracker/auth-service', autoscaled: false },
  registry: { image: 'media-tracker/registry-service', autoscaled: false },
  'catalog-movies': { image: 'media-tracker/catalog-service', autoscaled: true, category: 'movies' },
  'catalog-tvshows': { image: 'media-tracker/catalog-service', autoscaled: true, category: 'tvshows' },
  'catalog-books': { image: 'media-tracker/catalog-service', autoscaled: true, category: 'books' },
  scrobble: { image: 'media-tracker/scrobble-service', autoscaled: true },
} as const;

/** The `http` probe paths of docs/api.md "Probes". */
const PROBE_PATHS = {
  startupProbe: '/startupz',
  livenessProbe: '/livez',
  readinessProbe: '/readyz',
} as const;
/** The services' default METRICS_PORT (@mt/config), when neither the container nor the ConfigMap sets one. */
const DEFAULT_METRICS_PORT = 9464;
const MIN_MEMORY_LIMIT = 256 * 2 ** 20;
/** argon2id with OWASP's parameters holds 19 MiB per hash; libuv runs up to UV_THREADPOOL_SIZE at once. */
const ARGON2_BYTES_PER_HASH = 19 * 2 ** 20;
/** The services' shutdown budget after SIGTERM (drain + deregister + close stores). */
const SHUTDOWN_BUDGET_SECONDS = 10;

const envValue = (container: Container, name: string) => container.env?.find((e) => e.name === name);

function resolvePort(container: Container, port: string | number | undefined): number | undefined {
  if (typeof port === 'number')
    return container.ports?.some((p) => p.containerPort === port) ? port : undefined;
  return container.ports?.find((p) => p.name === port)?.containerPort;
}

function checkContainer(
  where: string,
  container: Container,
  pod: PodSpec,
  secrets: SecretKeys,
  configMaps: Set<string>,
): string[] {
  const problems: string[] = [];
  const port = container.ports?.[0]?.containerPort;
  if (!port) problems.push(`${where}: no container port`);

  for (const [probe, expectedPath] of Object.entries(PROBE_PATHS) as Array<
    [keyof typeof PROBE_PATHS, string]
  >) {
    const definition = container[probe];
    if (!definition?.httpGet) {
      problems.push(`${where}: no ${probe} (httpGet ${expectedPath})`);
      continue;
    }
    if (definition.httpGet.path !== expectedPath) {
      problems.push(`${where}: ${probe} probes ${definition.httpGet.path}, expected ${expectedPath}`);
    }
    if (resolvePort(container, definition.httpGet.port) === undefined) {
      problems.push(`${where}: ${probe} port ${definition.httpGet.port} is not a port of the container`);
    }
  }
  const readinessTimeout = container.readinessProbe?.timeoutSeconds ?? 1;
  if (readinessTimeout < 2)
    problems.push(`${where}: readinessProbe timeoutSeconds must exceed the 1 s database ping`);

  const requests = container.resources?.requests ?? {};
  const limits = container.resources?.limits ?? {};
  for (const resource of ['cpu', 'memory']) {
    if (requests[resource] === undefined) problems.push(`${where}: no ${resource} request`);
    if (limits[resource] === undefined) problems.push(`${where}: no ${resource} limit`);
  }
  // The image's NODE_OPTIONS: a Deployment that sets its own replaces it, so it must say it again.
  const imageOptions = nodeOptionsOf(container.image?.split(':')[0]?.replace(/^media-tracker\//, '') ?? '');
  if (!(envValue(container, 'NODE_OPTIONS')?.value ?? '').split(/\s+/).includes(imageOptions))
    problems.push(`${where}: NODE_OPTIONS must keep the image's ${imageOptions} (libs/stack nodeOptionsOf)`);
  if (limits['memory'] !== undefined) {
    const limit = memoryBytes(limits['memory']);
    if (limit < MIN_MEMORY_LIMIT) problems.push(`${where}: memory limit ${limits['memory']} is below 256Mi`);
    if (requests['memory'] !== undefined && memoryBytes(requests['memory']) > limit) {
      problems.push(`${where}: memory request above its limit`);
    }
    if (container.image?.startsWith('media-tracker/auth-service')) {
      const threads = Number(envValue(container, 'UV_THREADPOOL_SIZE')?.value ?? 4);
      const needed = MIN_MEMORY_LIMIT + threads * ARGON2_BYTES_PER_HASH;
      if (limit < needed) {
        problems.push(
          `${where}: memory limit ${limits['memory']} leaves no room for ${threads} concurrent argon2 hashes (19 MiB each)`,
        );
      }
    }
    const heap = /--max-old-space-size=(\d+)/.exec(envValue(container, 'NODE_OPTIONS')?.value ?? '')?.[1];
    if (heap && Number(heap) * 2 ** 20 >= limit)
      problems.push(`${where}: the V8 heap cap is not below the memory limit`);
  }
  if (
    requests['cpu'] !== undefined &&
    limits['cpu'] !== undefined &&
    cpuMillis(requests['cpu']) > cpuMillis(limits['cpu'])
  ) {
    problems.push(`${where}: cpu request above its limit`);
  }

  const security = container.securityContext ?? {};
  if (security.allowPrivilegeEscalation !== false)
    problems.push(`${where}: allowPrivilegeEscalation must be false`);
  if (security.readOnlyRootFilesystem !== true)
    problems.push(`${where}: readOnlyRootFilesystem must be true`);
  if (!security.capabilities?.drop?.includes('ALL')) problems.push(`${where}: capabilities must drop ALL`);
  if (pod.securityContext?.runAsNonRoot !== true && security.runAsNonRoot !== true) {
    problems.push(`${where}: runAsNonRoot must be true`);
  }

  const preStop = container.lifecycle?.preStop;
  const sleepSeconds =
    preStop?.sleep?.seconds ??
    (preStop?.exec?.command?.[0] === 'sleep' ? Number(preStop.exec.command[1]) : 0);
  if (!(sleepSeconds >= 3))
    problems.push(`${where}: a preStop sleep (≥ 3 s) lets endpoints update before SIGTERM`);
  const grace = pod.terminationGracePeriodSeconds ?? 30;
  if (grace < 15 || grace < sleepSeconds + SHUTDOWN_BUDGET_SECONDS) {
    problems.push(
      `${where}: terminationGracePeriodSeconds ${grace} must be ≥ 15 and ≥ preStop sleep + ${SHUTDOWN_BUDGET_SECONDS} s`,
    );
  }

  const portEnv = envValue(container, 'PORT')?.value;
  if (portEnv !== String(port))
    problems.push(`${where}: PORT env (${portEnv}) must equal the container port (${port})`);

  for (const env of container.env ?? []) {
    const secretRef = env.valueFrom?.secretKeyRef;
    if (secretRef && !secretRef.optional && !secrets.get(secretRef.name)?.has(secretRef.key)) {
      problems.push(`${where}: env ${env.name} reads missing secret key ${secretRef.name}/${secretRef.key}`);
    }
    // A *_FILE variable holds a path (to a mounted Secret), not the secret itself.
    if (
      /SECRET|PRIVATE_KEY|PASSWORD/.test(env.name) &&
      !env.name.endsWith('_FILE') &&
      env.value !== undefined
    ) {
      problems.push(`${where}: env ${env.name} is a secret and must come from a Secret, not a literal`);
    }
  }
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef && !configMaps.has(source.configMapRef.name)) {
      problems.push(`${where}: envFrom names unknown ConfigMap ${source.configMapRef.name}`);
    }
    if (source.secretRef && !secrets.has(source.secretRef.name)) {
      problems.push(`${where}: envFrom names unknown Secret ${source.secretRef.name}`);
    }
  }
  for (const volume of pod.volumes ?? []) {
    const secretName = volume.secret?.secretName ?? '';
    for (const item of volume.secret?.items ?? []) {
      if (!secrets.get(secretName)?.has(item.key)) {
        problems.push(`${where}: volume ${volume.name} mounts missing secret key ${secretName}/${item.key}`);
      }
    }
  }
  return problems;
}

/**
 * The metrics port: a container port named `metrics` equal to METRICS_PORT, what the Prometheus annotations
 * scrape; the probes stay on the API port, and no Service exposes it (an Ingress routes to Services).
 */
function checkMetricsPort(
  where: string,
  container: Container,
  annotations: Record<string, string> | undefined,
  configured: number,
): string[] {
  const problems: string[] = [];
  const own = envValue(container, 'METRICS_PORT')?.value;
  const expected = own === undefined ? configured : Number(own);
  const port = container.ports?.find((p) => p.name === 'metrics')?.containerPort;
  if (port !== expected)
    problems.push(
      `${where}: a container port named metrics must be METRICS_PORT (${expected}), found ${port}`,
    );
  if (annotations?.['prometheus.io/scrape'] !== 'true')
    problems.push(`${where}: the pod must be annotated prometheus.io/scrape: 'true'`);
  if (annotations?.['prometheus.io/port'] !== String(expected)) {
    problems.push(
      `${where}: prometheus.io/port must be the metrics port ${expected}, found ${annotations?.['prometheus.io/port']}`,
    );
  }
  if (annotations?.['prometheus.io/path'] !== '/metrics')
    problems.push(`${where}: prometheus.io/path must be /metrics`);
  for (const probe of Object.keys(PROBE_PATHS) as Array<keyof typeof PROBE_PATHS>) {
    const probed = resolvePort(container, container[probe]?.httpGet?.port);
    if (probed !== undefined && probed === expected)
      problems.push(`${where}: ${probe} must probe the API port, not the metrics port`);
  }
  return problems;
}

/** A catalog pod registers as itself: INSTANCE_ID = pod name, ADVERTISED_URL = its own pod IP and port. */
function checkCatalogIdentity(where: string, container: Container, category: string): string[] {
  const problems: string[] = [];
  const env = container.env ?? [];
  const port = container.ports?.[0]?.containerPort;
  if (envValue(container, 'CATEGORY')?.value !== category)
    problems.push(`${where}: CATEGORY must be ${category}`);
  if (envValue(container, 'INSTANCE_ID')?.valueFrom?.fieldRef?.fieldPath !== 'metadata.name') {
    problems.push(`${where}: INSTANCE_ID must come from the pod name (fieldRef metadata.name)`);
  }
  const podIp = env.findIndex(
    (e) => e.name === 'POD_IP' && e.valueFrom?.fieldRef?.fieldPath === 'status.podIP',
  );
  const advertised = env.findIndex((e) => e.name === 'ADVERTISED_URL');
  if (podIp < 0) problems.push(`${where}: POD_IP must come from status.podIP`);
  if (advertised < 0 || env[advertised].value !== `http://$(POD_IP):${port}`) {
    problems.push(`${where}: ADVERTISED_URL must be http://$(POD_IP):${port}`);
  } else if (podIp > advertised) {
    problems.push(`${where}: POD_IP must be defined before ADVERTISED_URL, or $(POD_IP) is not expanded`);
  }
  return problems;
}

type SecretKeys = Map<string, Set<string>>;

function secretKeys(manifests: Manifest[]): SecretKeys {
  return new Map(
    ofKind(manifests, 'Secret').map((secret) => [
      nameOf(secret),
      new Set([
        ...Object.keys((secret.object['stringData'] as Record<string, string> | undefined) ?? {}),
        ...Object.keys((secret.object['data'] as Record<string, string> | undefined) ?? {}),
      ]),
    ]),
  );
}

/** Semantic problems of a manifest set (after schema validation); an empty list means it passes. */
export function checkManifests(manifests: Manifest[]): string[] {
  const problems: string[] = [];
  const deployments = ofKind(manifests, 'Deployment');
  const services = ofKind(manifests, 'Service');
  const hpas = ofKind(manifests, 'HorizontalPodAutoscaler');
  const secrets = secretKeys(manifests);
  const configMaps = new Set(ofKind(manifests, 'ConfigMap').map(nameOf));
  const configuredMetricsPort = Number(
    ofKind(manifests, 'ConfigMap')
      .map((m) => (m.object['data'] as Record<string, string> | undefined)?.['METRICS_PORT'])
      .find((value) => value !== undefined) ?? DEFAULT_METRICS_PORT,
  );

  const names = deployments.map(nameOf);
  for (const required of Object.keys(REQUIRED_DEPLOYMENTS)) {
    if (!names.includes(required)) problems.push(`missing Deployment ${required}`);
  }

  for (const deployment of deployments) {
    const name = nameOf(deployment);
    const where = `${deployment.file} Deployment ${name}`;
    const spec = specOf<DeploymentSpec>(deployment);
    const podLabels = spec.template.metadata?.labels;
    if (!selects(spec.selector.matchLabels, podLabels))
      problems.push(`${where}: selector does not match the pod labels`);
    const pod = spec.template.spec;
    if (pod.automountServiceAccountToken !== false)
      problems.push(`${where}: automountServiceAccountToken must be false`);
    if (pod.containers.length !== 1) problems.push(`${where}: one container expected`);
    const container = pod.containers[0];
    problems.push(...checkContainer(where, container, pod, secrets, configMaps));
    problems.push(
      ...checkMetricsPort(where, container, spec.template.metadata?.annotations, configuredMetricsPort),
    );
    const metricsPort = container.ports?.find((p) => p.name === 'metrics')?.containerPort;

    const expected = REQUIRED_DEPLOYMENTS[name as keyof typeof REQUIRED_DEPLOYMENTS];
    if (expected) {
      const image = container.image?.split(':')[0];
      if (image !== expected.image)
        problems.push(`${where}: image ${container.image}, expected ${expected.image}`);
      if ('category' in expected) problems.push(...checkCatalogIdentity(where, container, expected.category));
    }

    const matching = services.filter((service) => selects(specOf<ServiceSpec>(service).selector, podLabels));
    if (matching.length === 0) problems.push(`${where}: no Service selects its pods`);
    for (const service of matching) {
      for (const servicePort of specOf<ServiceSpec>(service).ports ?? []) {
        const target = resolvePort(container, servicePort.targetPort ?? servicePort.port);
        if (target === undefined) {
          problems.push(
            `Service ${nameOf(service)}: targetPort ${servicePort.targetPort} is not a port of ${name}`,
          );
        } else if (target === metricsPort) {
          problems.push(
            `Service ${nameOf(service)}: exposes the metrics port of ${name}; metrics are scraped on the pods`,
          );
        }
      }
    }

    const hpa = hpas.find((h) => {
      const target = specOf<HpaSpec>(h).scaleTargetRef;
      return target.kind === 'Deployment' && target.name === name;
    });
    if (expected?.autoscaled && !hpa) problems.push(`${where}: no HorizontalPodAutoscaler`);
    if (hpa) {
      const hpaSpec = specOf<HpaSpec>(hpa);
      if (spec.replicas !== undefined)
        problems.push(`${where}: autoscaled, so spec.replicas must be left to the HPA`);
      if ((hpaSpec.minReplicas ?? 1) < 2) problems.push(`HPA ${nameOf(hpa)}: minReplicas must be ≥ 2`);
      if (hpaSpec.maxReplicas < (hpaSpec.minReplicas ?? 1))
        problems.push(`HPA ${nameOf(hpa)}: maxReplicas below minReplicas`);
      const usesCpu = hpaSpec.metrics?.some((m) => m.type === 'Resource' && m.resource?.name === 'cpu');
      if (usesCpu && container.resources?.requests?.['cpu'] === undefined) {
        problems.push(`${where}: CPU utilization scaling needs a cpu request`);
      }
    } else if ((spec.replicas ?? 1) < 2) {
      problems.push(`${where}: at least 2 replicas, so a rollout or a node drain keeps it available`);
    }
  }

  for (const service of services) {
    const selected = deployments.filter((d) =>
      selects(specOf<ServiceSpec>(service).selector, specOf<DeploymentSpec>(d).template.metadata?.labels),
    );
    if (selected.length !== 1) {
      problems.push(`Service ${nameOf(service)} selects ${selected.length} Deployments, expected exactly 1`);
    }
  }
  for (const hpa of hpas) {
    const target = specOf<HpaSpec>(hpa).scaleTargetRef;
    if (!deployments.some((d) => nameOf(d) === target.name))
      problems.push(`HPA ${nameOf(hpa)} targets unknown ${target.name}`);
  }
  return problems;
}

/** The kustomization lists every manifest file except itself and the examples (never applied). */
export function checkKustomization(manifests: Manifest[], files: string[]): string[] {
  const kustomization = manifests.find((m) => m.object.kind === 'Kustomization');
  if (!kustomization) return ['no kustomization.yaml'];
  const listed = (kustomization.object['resources'] as string[] | undefined) ?? [];
  const expected = files.filter((file) => file !== kustomization.file && !/\.example\.ya?ml$/.test(file));
  const problems = [
    ...expected
      .filter((file) => !listed.includes(file))
      .map((file) => `kustomization.yaml does not list ${file}`),
    ...listed
      .filter((file) => !files.includes(file))
      .map((file) => `kustomization.yaml lists missing ${file}`),
    ...listed
      .filter((file) => /\.example\.ya?ml$/.test(file))
      .map((file) => `kustomization.yaml applies the example ${file}`),
  ];
  const images = new Map(
    ((kustomization.object['images'] as Array<{ name: string; newTag?: string }> | undefined) ?? []).map(
      (image) => [image.name, image.newTag] as const,
    ),
  );
  for (const image of new Set(Object.values(REQUIRED_DEPLOYMENTS).map((d) => d.image))) {
    if (!images.has(image)) problems.push(`kustomization.yaml sets no tag for ${image}`);
    // One IMAGE_TAG everywhere: compose's default and these tags are the release in package.json.
    else if (images.get(image) !== PACKAGE_VERSION) {
      problems.push(
        `kustomization.yaml tags ${image} ${images.get(image)}, expected the package version ${PACKAGE_VERSION}`,
      );
    }
  }
  return problems;
}
