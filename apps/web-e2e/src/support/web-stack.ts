import { ApiClient } from '@mt/api-client';
import { findWorkspaceRoot, startStack, type LogLine, type Stack } from '@mt/stack';
import { deleteRedisPrefix, dropTestDatabase, testDbName, testMongoUrl, testRedisPrefix, testRedisUrl } from '@mt/testing';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';

export interface WebStack {
  readonly url: string;
  readonly stack: Stack;
  readonly logs: LogLine[];
  /** The shared API client, as the web app uses it, for seeding and checking what the browser did. */
  client(token?: string): ApiClient;
  stop(): Promise<void>;
}

/** The whole stack as `npm start` runs it, serving the built web app at `/`, in its own databases. */
export async function startWebStack(name: string, options: { env?: NodeJS.ProcessEnv } = {}): Promise<WebStack> {
  const root = findWorkspaceRoot();
  if (!existsSync(path.join(root, 'dist/apps/web/index.html'))) throw new Error('dist/apps/web is missing: run `npx nx build web` first');
  const redisKeyPrefix = testRedisPrefix(`web-${name}`);
  const authDb = testDbName(`web_${name}_auth`);
  const scrobbleDb = testDbName(`web_${name}_scrobble`);
  const catalogDbs = new Map<string, string>();
  const catalogDb = (category: string) => {
    if (!catalogDbs.has(category)) catalogDbs.set(category, testDbName(`web_${name}_${category}`));
    return catalogDbs.get(category)!;
  };
  const keyDir = path.join(root, 'tmp', 'web-e2e-keys', redisKeyPrefix.replace(/[^A-Za-z0-9]/g, '_'));
  const logs: LogLine[] = [];
  const stack = await startStack({
    ports: 'free',
    gatewayPort: 0,
    mongoUrl: testMongoUrl(),
    redisUrl: testRedisUrl(),
    redisKeyPrefix,
    mongoDbNames: { auth: authDb, catalog: catalogDb, scrobble: scrobbleDb },
    // Rate limits as shipped; a generated signing key per stack.
    env: { ...options.env, JWT_KEY_DIR: keyDir },
    onLog: (line) => {
      logs.push(line);
      if (process.env['E2E_VERBOSE'] === '1') process.stdout.write(`[${line.process}] ${line.text}\n`);
    },
  });
  const cleanUp = async () => {
    await deleteRedisPrefix(redisKeyPrefix).catch(() => undefined);
    await Promise.all([authDb, scrobbleDb, ...catalogDbs.values()].map((db) => dropTestDatabase(db).catch(() => undefined)));
    rmSync(keyDir, { recursive: true, force: true });
  };
  try {
    await stack.waitReady(90_000);
    const url = stack.gatewayUrl!;
    // Every category routed before the first page load.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const categories = (await (await fetch(`${url}/api/v1/categories`)).json()) as unknown[];
      if (categories.length === 3) break;
      if (Date.now() > deadline) throw new Error(`categories: ${JSON.stringify(categories)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    return {
      url,
      stack,
      logs,
      client: (token) => new ApiClient({ baseUrl: url, token }),
      async stop() {
        await stack.stop();
        await cleanUp();
        reportServiceErrors(name, logs);
      },
    };
  } catch (error) {
    await stack.stop().catch(() => undefined);
    await cleanUp();
    throw error;
  }
}

/** Pino's level for errors: a browser test that saw a 500 shows here which service failed, and why. */
const ERROR_LEVEL = 50;

function reportServiceErrors(name: string, logs: readonly LogLine[]): void {
  const errors = logs.filter((line) => typeof line.json?.['level'] === 'number' && (line.json['level'] as number) >= ERROR_LEVEL);
  if (errors.length) console.log(`errors logged by the ${name} web stack:\n${errors.map((line) => `  [${line.process}] ${line.text}`).join('\n')}`);
}
