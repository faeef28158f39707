import { findWorkspaceRoot, startStack, type Stack } from '@mt/stack';
import { deleteRedisPrefix, dropTestDatabase, testDbName, testMongoUrl, testRedisPrefix, testRedisUrl } from '@mt/testing';
import { rmSync } from 'node:fs';
import path from 'node:path';

const CATEGORIES = ['books', 'movies', 'tvshows'];

export interface CliStack {
  readonly stack: Stack;
  readonly url: string;
  /** Every output line of the stack's processes (searched for leaked secrets). */
  readonly logs: string[];
  stop(): Promise<void>;
}

/** The whole stack as processes, in databases and a Redis namespace of its own, with every category routed. */
export async function startCliStack(name: string, env: NodeJS.ProcessEnv = {}): Promise<CliStack> {
  const redisKeyPrefix = testRedisPrefix(`cli-${name}`);
  const databases = { auth: testDbName(`cli_${name}_auth`), scrobble: testDbName(`cli_${name}_scrobble`), ...Object.fromEntries(CATEGORIES.map((c) => [c, testDbName(`cli_${name}_${c}`)])) } as Record<string, string>;
  const keyDir = path.join(findWorkspaceRoot(), 'tmp', 'cli-keys', redisKeyPrefix.replace(/[^A-Za-z0-9]/g, '_'));
  const logs: string[] = [];
  const cleanUp = async () => {
    await deleteRedisPrefix(redisKeyPrefix).catch(() => undefined);
    await Promise.all(Object.values(databases).map((db) => dropTestDatabase(db).catch(() => undefined)));
    rmSync(keyDir, { recursive: true, force: true });
  };
  const stack = await startStack({
    ports: 'free',
    gatewayPort: 0,
    mongoUrl: testMongoUrl(),
    redisUrl: testRedisUrl(),
    redisKeyPrefix,
    mongoDbNames: { auth: databases['auth'], catalog: (category) => databases[category] ?? testDbName(`cli_${name}_${category}`), scrobble: databases['scrobble'] },
    logLevel: 'info',
    env: { JWT_KEY_DIR: keyDir, ...env },
    onLog: (line) => {
      logs.push(`[${line.process}] ${line.text}`);
      if (process.env['E2E_VERBOSE'] === '1') process.stdout.write(`[${line.process}] ${line.text}\n`);
    },
  });
  try {
    await stack.waitReady(90_000);
    const url = stack.gatewayUrl as string;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const ids = await fetch(`${url}/api/v1/categories`, { signal: AbortSignal.timeout(3000) })
        .then((answer) => answer.json() as Promise<Array<{ id: string }>>)
        .then((list) => list.map((category) => category.id))
        .catch(() => [] as string[]);
      if (CATEGORIES.every((id) => ids.includes(id))) break;
      if (Date.now() > deadline) throw new Error(`categories routed: ${ids.join(', ') || 'none'}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return {
      stack,
      url,
      logs,
      async stop() {
        try {
          await stack.stop();
        } finally {
          await cleanUp();
        }
      },
    };
  } catch (error) {
    await stack.stop().catch(() => undefined);
    await cleanUp();
    throw error;
  }
}
