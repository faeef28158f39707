// Relative imports only: Jest's global setup loads this file outside the module mapper (see libs/testing).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { findOnPath, startBinary, type ProvidedStore } from './embedded-stores';
import { freePort } from './free-port';

const run = promisify(execFile);

export interface LocalRedisCluster extends ProvidedStore {
  /** Every node's port, masters and replicas alike (which is which changes with a failover). */
  ports: number[];
}

/** How long a node may be silent before the others call it failing (and a replica takes over). */
const NODE_TIMEOUT_MS = 2000;
const READY_TIMEOUT_MS = 30_000;

/**
 * A throwaway Redis Cluster of `masters` masters with one replica each, from the `redis-server` and
 * `redis-cli` on PATH: free ports, a temporary directory per node, no persistence. Resolves once every slot
 * is served and every replica is in sync, so a CLUSTER FAILOVER can be asked of any replica at once.
 */
export async function startRedisCluster(masters = 3): Promise<LocalRedisCluster> {
  const server = findOnPath('redis-server');
  const cli = findOnPath('redis-cli');
  if (!server || !cli) throw new Error('a local Redis Cluster needs redis-server and redis-cli on PATH (Debian/Ubuntu: apt-get install redis-server)');
  // The bus port is picked too: the default (port + 10000) may fall in the ephemeral range, taken by anyone.
  const busPorts = await Promise.all(Array.from({ length: masters * 2 }, () => freePort()));
  const nodes = await Promise.all(
    busPorts.map((busPort) =>
      startBinary(
        server,
        (port, dir) => [
          ...['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
          ...['--cluster-enabled', 'yes', '--cluster-port', String(busPort), '--cluster-config-file', `${dir}/nodes.conf`],
          ...['--cluster-node-timeout', String(NODE_TIMEOUT_MS)],
        ],
        'redis-cluster',
      ),
    ),
  );
  const ports = nodes.map((node) => node.port);
  const stop = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
  };
  try {
    await run(cli, ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '1', '--cluster-yes']);
    await waitUntilSettled(ports);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `redis+cluster://${ports.map((port) => `127.0.0.1:${port}`).join(',')}`, source: 'binary', ports, stop };
}

/** Every node sees the cluster as ok and every replica's link to its master is up. */
async function waitUntilSettled(ports: number[]): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (await allSettled(ports)) return;
    if (Date.now() > deadline) throw new Error(`the Redis Cluster on ports ${ports.join(', ')} did not settle within ${READY_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function allSettled(ports: number[]): Promise<boolean> {
  const answers = await Promise.all(ports.map((port) => nodeReport(port)));
  return answers.every(({ info, replication }) => /cluster_state:ok/.test(info) && (/role:master/.test(replication) || /master_link_status:up/.test(replication)));
}

/** CLUSTER INFO and INFO replication of one node. */
export async function nodeReport(port: number): Promise<{ info: string; replication: string }> {
  const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    const info = (await redis.call('CLUSTER', 'INFO')) as string;
    const replication = await redis.info('replication');
    return { info, replication };
  } catch {
    return { info: '', replication: '' };
  } finally {
    redis.disconnect();
  }
}

/**
 * Asks a replica to take over from its master (CLUSTER FAILOVER: the master stops taking writes until the
 * replica has them all, then they swap), and waits until the replica reports itself master. Resolves the
 * port of the new master.
 */
export async function failOverOneMaster(ports: number[]): Promise<number> {
  for (const port of ports) {
    const { replication } = await nodeReport(port);
    if (!/role:slave/.test(replication) || !/master_link_status:up/.test(replication)) continue;
    const redis = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 0 });
    try {
      await redis.call('CLUSTER', 'FAILOVER');
      const deadline = Date.now() + READY_TIMEOUT_MS;
      while (!/role:master/.test(await redis.info('replication'))) {
        if (Date.now() > deadline) throw new Error(`the replica on port ${port} did not become master within ${READY_TIMEOUT_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      redis.disconnect();
    }
    await waitUntilSettled(ports);
    return port;
  }
  throw new Error('no replica in sync to fail over to');
}
