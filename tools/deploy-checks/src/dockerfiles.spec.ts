import { imageChain, imageOf, isInBuildContext, lintDockerfile, parseDockerfile } from './dockerfile';
import { APPS, IMAGES, readRepoFile, repoFileExists } from './repo';

describe('the Dockerfile (one target per app)', () => {
  const dockerfile = readRepoFile('Dockerfile');
  const stages = parseDockerfile(dockerfile);

  it.each(IMAGES)('passes the image lint for the $app target', ({ app, port }) => {
    expect(lintDockerfile(dockerfile, { app, port })).toEqual([]);
  });

  it.each(IMAGES)('builds the $app image on the shared runtime stage, with a build stage of its own', ({ app }) => {
    // The images that host the auth service stand on its settings, written once.
    const hostsAuth = app === 'auth-service' || app === 'all-in-one';
    expect(imageChain(stages, app).map((stage) => stage.name)).toEqual(hostsAuth ? ['runtime', 'auth-runtime', app] : ['runtime', app]);
    expect(stages.find((stage) => stage.name === `${app}-build`)?.image).toBe('build');
  });

  it('declares the user, health check, stop signal and command once, for every image', () => {
    const count = (keyword: string) =>
      stages.flatMap((stage) => stage.instructions).filter((instruction) => instruction.keyword === keyword).length;
    expect({ HEALTHCHECK: count('HEALTHCHECK'), STOPSIGNAL: count('STOPSIGNAL'), CMD: count('CMD') }).toEqual({
      HEALTHCHECK: 1,
      STOPSIGNAL: 1,
      CMD: 1,
    });
  });

  it.each(APPS)('leaves no Dockerfile of its own in apps/$app', ({ app }) => {
    expect(repoFileExists('apps', app, 'Dockerfile')).toBe(false);
  });

  it('reports an app without a target stage', () => {
    expect(lintDockerfile(dockerfile, { app: 'search-service', port: 3020 })).toEqual(
      expect.arrayContaining(['no target stage named search-service']),
    );
  });

  it("rejects an auth or all-in-one image without the launcher's malloc settings for argon2", () => {
    const mutated = dockerfile.replace(':glibc.malloc.hugetlb=1', '');
    expect(mutated).not.toBe(dockerfile);
    for (const [app, port] of [['auth-service', 3001], ['all-in-one', 8080]] as const) {
      expect(lintDockerfile(mutated, { app, port })).toEqual([expect.stringContaining('ENV GLIBC_TUNABLES=')]);
    }
    expect(lintDockerfile(mutated, { app: 'gateway', port: 8080 })).toEqual([]);
  });

  it("rejects an all-in-one image without the launcher's old-generation cap for its single process", () => {
    const mutated = dockerfile.replace(' --max-old-space-size=512"', '"');
    expect(mutated).not.toBe(dockerfile);
    expect(lintDockerfile(mutated, { app: 'all-in-one', port: 8080 })).toEqual([expect.stringContaining('--max-old-space-size=512')]);
    expect(lintDockerfile(mutated, { app: 'gateway', port: 8080 })).toEqual([]);
  });

  it('rejects an auth image left as root after preparing its key directory', () => {
    const mutated = dockerfile.replace(/(chmod 700 \/var\/lib\/media-tracker\/auth-keys\n)USER 1000:1000\n/, '$1');
    expect(mutated).not.toBe(dockerfile);
    expect(lintDockerfile(mutated, { app: 'auth-service', port: 3001 })).toEqual(['the image runs as root (USER 0)']);
    expect(lintDockerfile(mutated, { app: 'gateway', port: 8080 })).toEqual([]);
  });

  it('prepares the JWT key directory for the auth-keys volume, owned by the runtime user', () => {
    const auth = imageOf(stages, 'auth-service')!;
    const text = auth.instructions.map((i) => `${i.keyword} ${i.args}`).join('\n');
    expect(text).toMatch(
      /RUN mkdir -p \/var\/lib\/media-tracker\/auth-keys && chown 1000:1000 \/var\/lib\/media-tracker\/auth-keys/,
    );
    expect(text).toMatch(/JWT_KEY_DIR=\/var\/lib\/media-tracker\/auth-keys/);
  });
});

describe('the Dockerfile lint catches what matters', () => {
  const good = readRepoFile('Dockerfile');
  const lint = (text: string) => lintDockerfile(text, { app: 'gateway', port: 8080 });
  const mutate = (from: string | RegExp, to: string) => {
    const mutated = good.replace(from, to);
    expect(mutated).not.toBe(good);
    return lint(mutated);
  };

  it('accepts the real file (the baseline of the cases below)', () => {
    expect(lint(good)).toEqual([]);
  });

  it.each([
    ['running as root', /USER 1000:1000/, 'USER root', 'runs as root (USER root)'],
    ['no USER at all', /USER 1000:1000\n/, '', 'runs as root: no USER'],
    ['a named user Kubernetes cannot verify', /USER 1000:1000/, 'USER node', 'not numeric'],
    [
      'curl in the health check',
      /CMD \["node", "-e", .*\]$/m,
      'CMD curl -f http://127.0.0.1:8080/livez',
      'must run node',
    ],
    ['a health check on /readyz', /\/livez/, '/readyz', 'must probe /livez'],
    [
      'an Alpine base image',
      /FROM node:24-bookworm-slim AS runtime/,
      'FROM node:24-alpine AS runtime',
      'expected node:24-bookworm-slim',
    ],
    [
      'an end-of-life Node line',
      /FROM node:24-bookworm-slim AS runtime/,
      'FROM node:20-bookworm-slim AS runtime',
      'expected node:24-bookworm-slim',
    ],
    ['dev dependencies in the image', /npm ci --omit=dev/, 'npm ci', '`npm ci --omit=dev`'],
    ['the wrong port', /EXPOSE 8080/, 'EXPOSE 3000', 'EXPOSE 8080 expected'],
    [
      "the services' young generation in the gateway (not the launcher's)",
      /NODE_OPTIONS=--max-semi-space-size=16/,
      'NODE_OPTIONS=--max-semi-space-size=8',
      'ENV NODE_OPTIONS="--max-semi-space-size=16" expected',
    ],
    [
      'a shell-form CMD (no SIGTERM for node)',
      /CMD \["node", "--enable-source-maps", "main.js"\]/,
      'CMD node main.js',
      'exec form',
    ],
    [
      'a baked-in secret',
      /ENV NODE_ENV=production/,
      'ENV INTERNAL_SECRET=abc NODE_ENV=production',
      'must not carry secrets',
    ],
  ])('rejects %s', (_case, from, to, problem) => {
    expect(mutate(from, to)).toEqual(expect.arrayContaining([expect.stringContaining(problem)]));
  });

  it("rejects a service image left with V8's default young generation (not the launcher's)", () => {
    const mutated = good.replace(/ \\\n {4}NODE_OPTIONS=--max-semi-space-size=8\n/, '\n');
    expect(mutated).not.toBe(good);
    expect(lintDockerfile(mutated, { app: 'catalog-service', port: 3011 })).toEqual(
      expect.arrayContaining([expect.stringContaining('ENV NODE_OPTIONS="--max-semi-space-size=8" expected')]),
    );
  });

  it('rejects a single-stage build', () => {
    const single = `FROM node:24-bookworm-slim\nWORKDIR /app\nCOPY . .\nRUN npm ci --omit=dev\nUSER 1000\nCMD ["node","main.js"]\n`;
    expect(lint(single)).toEqual(expect.arrayContaining(['multi-stage build expected, found 1 stage(s)']));
  });
});

describe('.dockerignore', () => {
  const dockerignore = readRepoFile('.dockerignore');

  it.each([
    'package.json',
    'package-lock.json',
    'tsconfig.base.json',
    'tools/build/build-app.mjs',
    'libs/shared/http/src/http-app.ts',
    'libs/contracts/src/index.ts',
    'apps/gateway/src/main.ts',
    'apps/gateway/tsconfig.json',
  ])('keeps the build input %s in the context', (file) => {
    expect(isInBuildContext(dockerignore, file)).toBe(true);
  });

  it.each([
    'node_modules/express/index.js',
    'apps/gateway/node_modules/x/index.js',
    'dist/apps/gateway/main.js',
    '.git/HEAD',
    '.env',
    '.env.production',
    '.data/auth-keys/jwt-signing-key.pem',
    'libs/shared/http/src/http-app.spec.ts',
    'apps/gateway/src/proxy.int.spec.ts',
    'deploy/k8s/gateway.yaml',
    'jwt-private-key.pem',
  ])('leaves %s out of the context', (file) => {
    expect(isInBuildContext(dockerignore, file)).toBe(false);
  });
});
