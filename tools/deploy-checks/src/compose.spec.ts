import {
  checkCompose,
  documentedVariables,
  interpolatedVariables,
  runCompose,
  type ComposeModel,
} from './compose';
import { findBinary, PACKAGE_VERSION, readRepoFile } from './repo';
import { parseYamlDocument } from './yaml-documents';

const composeText = readRepoFile('docker-compose.yml');
const rawModel = parseYamlDocument(composeText, 'docker-compose.yml') as ComposeModel;
const SECRET_ENV = `INTERNAL_SECRET=${'s'.repeat(40)}\n`;

describe('docker-compose.yml', () => {
  it('passes the stack checks (stores, healthchecks, dependencies, catalogs, key volume)', () => {
    expect(checkCompose(rawModel)).toEqual([]);
  });

  it('documents in .env.example every variable it reads, and nothing else', () => {
    const documented = documentedVariables(readRepoFile('.env.example'));
    expect(documented).toEqual(interpolatedVariables(composeText));
  });

  it('requires INTERNAL_SECRET instead of defaulting it', () => {
    expect(composeText).toMatch(/INTERNAL_SECRET: '\$\{INTERNAL_SECRET:\?[^}]+\}'/);
  });
});

describe('the compose checks catch what matters', () => {
  const change = (mutate: (model: ComposeModel) => void) => {
    const copy = structuredClone(rawModel);
    mutate(copy);
    return checkCompose(copy);
  };

  it.each<[string, (model: ComposeModel) => void, string]>([
    [
      'a standalone mongod (no transactions)',
      (m) => (m.services['mongo'].command = ['mongod']),
      'replica set rs0',
    ],
    ['redis without AOF', (m) => (m.services['redis'].command = ['redis-server']), 'AOF'],
    [
      'a service without healthcheck',
      (m) => delete m.services['registry-service'].healthcheck,
      'registry-service: no healthcheck',
    ],
    [
      'depends_on without a health condition',
      (m) => {
        m.services['gateway'].depends_on = { 'auth-service': { condition: 'service_started' } };
      },
      'depends_on auth-service must be service_healthy',
    ],
    [
      'two catalogs with one category',
      (m) => {
        (m.services['catalog-books'].environment as Record<string, string>)['CATEGORY'] = 'movies';
      },
      'CATEGORY movies also served by catalog-movies',
    ],
    [
      'a catalog advertising localhost',
      (m) => {
        (m.services['catalog-tvshows'].environment as Record<string, string>)['ADVERTISED_URL'] =
          'http://localhost:3012';
      },
      'ADVERTISED_URL must be http://catalog-tvshows:3012',
    ],
    [
      'a published internal service',
      (m) => (m.services['auth-service'].ports = ['3001:3001']),
      'only the gateway publishes',
    ],
    [
      'the gateway publishing its metrics port',
      (m) => m.services['gateway'].ports!.push('9464:9464'),
      'the gateway publishes only the API',
    ],
    [
      'a service without its metrics port on the network',
      (m) => (m.services['registry-service'].expose = []),
      'registry-service: must expose the metrics port 9464',
    ],
    [
      'scrape labels naming the API port',
      (m) => ((m.services['catalog-books'].labels as Record<string, string>)['prometheus.io/port'] = '3013'),
      "catalog-books: labels prometheus.io/scrape 'true' and prometheus.io/port '9464'",
    ],
    [
      'an image tag that is not the package version',
      (m) => (m.services['auth-service'].image = 'media-tracker/auth-service:${IMAGE_TAG:-latest}'),
      'auth-service: the image tag defaults to latest, expected the package version',
    ],
    [
      "a service built from another app's target",
      (m) => (m.services['registry-service'].build = { context: '.', target: 'gateway' }),
      "registry-service: must build the Dockerfile's registry-service target",
    ],
    [
      'an auth key dir without volume',
      (m) => (m.services['auth-service'].volumes = []),
      'JWT_KEY_DIR must be a named volume',
    ],
  ])('rejects %s', (_case, mutate, problem) => {
    expect(change(mutate)).toEqual(expect.arrayContaining([expect.stringContaining(problem)]));
  });
});

const compose = findBinary('docker-compose');
if (!compose) {
  console.warn(
    'docker-compose is not installed: the `docker-compose config` checks are SKIPPED ' +
      '(apt-get install -y docker-compose; .ci/run installs it).',
  );
}

(compose ? describe : describe.skip)(
  'docker-compose config (Debian docker-compose, no engine needed)',
  () => {
    it('validates the file with the documented .env', async () => {
      const result = await runCompose(compose!, SECRET_ENV, ['config', '-q']);
      expect({ code: result.code, stderr: result.stderr.trim() }).toEqual({ code: 0, stderr: '' });
    });

    it('tags every image with IMAGE_TAG from .env', async () => {
      const result = await runCompose(compose!, `${SECRET_ENV}IMAGE_TAG=2.3.4\n`, ['config']);
      expect(result.code).toBe(0);
      const resolved = parseYamlDocument(result.stdout, 'docker-compose config') as ComposeModel;
      const tags = Object.values(resolved.services)
        .map((service) => service.image ?? '')
        .filter((image) => image.startsWith('media-tracker/'))
        .map((image) => image.split(':')[1]);
      expect(tags).toEqual(['2.3.4', '2.3.4', '2.3.4', '2.3.4', '2.3.4', '2.3.4', '2.3.4']);
    });

    it('refuses to run without INTERNAL_SECRET, naming it', async () => {
      const result = await runCompose(compose!, '', ['config', '-q']);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(
        'set INTERNAL_SECRET (32+ random characters) in .env, see .env.example',
      );
    });

    it('resolves to a stack that passes the same checks, with the .env values applied', async () => {
      const result = await runCompose(compose!, `${SECRET_ENV}GATEWAY_PORT=18080\nLOG_LEVEL=debug\n`, [
        'config',
      ]);
      expect(result.code).toBe(0);
      const resolved = parseYamlDocument(result.stdout, 'docker-compose config') as ComposeModel;
      expect(checkCompose(resolved)).toEqual([]);
      expect(resolved.services['gateway'].ports).toEqual([{ published: 18080, target: 8080 }]);
      expect(resolved.services['auth-service'].image).toBe(`media-tracker/auth-service:${PACKAGE_VERSION}`);
      for (const name of ['gateway', 'auth-service', 'registry-service', 'catalog-movies']) {
        expect(resolved.services[name].environment).toMatchObject({
          INTERNAL_SECRET: 's'.repeat(40),
          LOG_LEVEL: 'debug',
        });
      }
    });
  },
);
