/**
 * Where a service's Redis is: one server (`redis://`, `rediss://`) or a Redis Cluster
 * (`redis+cluster://[user:password@]host:port[,host:port…]`, `rediss+cluster://` with TLS) whose listed
 * nodes are only the seeds: the client learns the rest of the cluster from them.
 */
export type RedisTarget = { kind: 'single'; url: string } | ClusterTarget;

export interface ClusterTarget {
  kind: 'cluster';
  nodes: Array<{ host: string; port: number }>;
  username?: string;
  password?: string;
  tls: boolean;
}

const CLUSTER_URL = /^(rediss?)\+cluster:\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([^/?#@]+)\/?$/;
const SINGLE_PROTOCOLS = ['redis:', 'rediss:'];

/** Reads REDIS_URL's value; throws a message naming what is wrong. */
export function parseRedisTarget(url: string): RedisTarget {
  const cluster = CLUSTER_URL.exec(url);
  if (cluster) {
    const [, scheme, username, password, hosts = ''] = cluster;
    return {
      kind: 'cluster',
      nodes: hosts.split(',').map(parseNode),
      ...(username ? { username: decodeURIComponent(username) } : {}),
      ...(password ? { password: decodeURIComponent(password) } : {}),
      tls: scheme === 'rediss',
    };
  }
  if (/^rediss?\+cluster:/.test(url)) throw new Error('a cluster URL is redis+cluster://[user:password@]host:port[,host:port…]');
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new Error('must be a URL (redis:, rediss: or redis+cluster:)');
  }
  if (!SINGLE_PROTOCOLS.includes(protocol)) throw new Error('must be a URL (redis:, rediss: or redis+cluster:)');
  return { kind: 'single', url };
}

function parseNode(node: string): { host: string; port: number } {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(node.trim());
  const [, host, port] = match ?? [];
  if (!host || !port || Number(port) < 1 || Number(port) > 65535) throw new Error(`cluster node "${node.trim()}" is not host:port`);
  return { host: host.replace(/^\[|\]$/g, ''), port: Number(port) };
}

/**
 * REDIS_CLUSTER_NODES (`host:port,host:port`) is another way to write REDIS_URL `redis+cluster://host:port,…`
 * (what a Helm chart or a compose file lists most easily). Returns the environment with it folded into
 * REDIS_URL, or the problem with it (both set, a node that is not host:port).
 */
export function foldRedisClusterNodes(env: Record<string, string>): { env: Record<string, string>; problem?: string } {
  const { REDIS_CLUSTER_NODES: nodes, ...rest } = env;
  if (nodes === undefined) return { env };
  if (rest['REDIS_URL'] !== undefined) return { env: rest, problem: 'REDIS_CLUSTER_NODES: set it or REDIS_URL, not both' };
  const url = `redis+cluster://${nodes.split(',').map((node) => node.trim()).filter(Boolean).join(',')}`;
  try {
    parseRedisTarget(url);
  } catch (error) {
    return { env: rest, problem: `REDIS_CLUSTER_NODES: ${(error as Error).message}` };
  }
  return { env: { ...rest, REDIS_URL: url } };
}
