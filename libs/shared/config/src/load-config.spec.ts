import { z } from 'zod';
import { baseEnvShape, internalSecretShape, mongoEnvShape, redisEnvShape } from './common-env';
import { envBool, envInt, envList, envUrl } from './env-types';
import { ConfigError, loadConfig } from './load-config';

const serviceSchema = z.object({ ...baseEnvShape(3001), ...mongoEnvShape, ...redisEnvShape, ...internalSecretShape });
const SECRET = 's'.repeat(32);

function problemsOf(env: NodeJS.ProcessEnv, schema: z.ZodType = serviceSchema): string[] {
  try {
    loadConfig(schema, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the defaults of the service map', () => {
    expect(loadConfig(serviceSchema, { INTERNAL_SECRET: SECRET })).toEqual({
      PORT: 3001,
      HOST: '0.0.0.0',
      LOG_LEVEL: 'info',
      SERVICE_VERSION: '1.0.0',
      SHUTDOWN_TIMEOUT_MS: 8000,
      METRICS_PORT: 9464,
      REQUEST_TIMEOUT_MS: 30000,
      MONGO_URL: 'mongodb://127.0.0.1:27017',
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: 'mt:',
      INTERNAL_SECRET: SECRET,
    });
  });

  it('names every bad variable in one error, so an operator fixes them all at once', () => {
    const problems = problemsOf({
      PORT: '70000',
      LOG_LEVEL: 'loud',
      MONGO_URL: 'http://db',
      REDIS_URL: 'not a url',
      REDIS_KEY_PREFIX: 'has space',
      SHUTDOWN_TIMEOUT_MS: '-5',
      INTERNAL_SECRET: 'short',
    });
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(
      ['INTERNAL_SECRET', 'LOG_LEVEL', 'MONGO_URL', 'PORT', 'REDIS_KEY_PREFIX', 'REDIS_URL', 'SHUTDOWN_TIMEOUT_MS'].sort(),
    );
    expect(problems).toContain('INTERNAL_SECRET: must be at least 32 characters');
    expect(problems).toContain('MONGO_URL: must be a URL (mongodb: or mongodb+srv:)');
  });

  it('explains a missing required variable', () => {
    expect(problemsOf({})).toEqual(['INTERNAL_SECRET: is required (a random string of at least 32 characters)']);
  });

  it('puts every problem in the message, one per line', () => {
    try {
      loadConfig(serviceSchema, { PORT: 'x' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect((error as Error).message).toBe(
        'Invalid configuration:\n  - PORT: must be a non-negative integer\n  - INTERNAL_SECRET: is required (a random string of at least 32 characters)',
      );
    }
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig(serviceSchema, { INTERNAL_SECRET: SECRET, PORT: '', LOG_LEVEL: '' })).toMatchObject({ PORT: 3001, LOG_LEVEL: 'info' });
  });

  it('reads REDIS_CLUSTER_NODES as a Redis Cluster URL', () => {
    expect(loadConfig(serviceSchema, { INTERNAL_SECRET: SECRET, REDIS_CLUSTER_NODES: 'r1:7000, r2:7001' })).toMatchObject({
      REDIS_URL: 'redis+cluster://r1:7000,r2:7001',
    });
  });

  it('refuses REDIS_CLUSTER_NODES beside REDIS_URL, or with a node that is not host:port', () => {
    expect(problemsOf({ INTERNAL_SECRET: SECRET, REDIS_URL: 'redis://r:6379', REDIS_CLUSTER_NODES: 'r1:7000' })).toEqual([
      'REDIS_CLUSTER_NODES: set it or REDIS_URL, not both',
    ]);
    expect(problemsOf({ INTERNAL_SECRET: SECRET, REDIS_CLUSTER_NODES: 'r1:7000,r2' })).toEqual(['REDIS_CLUSTER_NODES: cluster node "r2" is not host:port']);
  });

  it('ignores variables it does not know', () => {
    expect(loadConfig(serviceSchema, { INTERNAL_SECRET: SECRET, PATH: '/bin' })).not.toHaveProperty('PATH');
  });
});

describe('env types', () => {
  const parse = (schema: z.ZodType, value: string | undefined) => schema.safeParse(value);

  it('envInt accepts digits within bounds only', () => {
    const port = envInt(5, 1, 10);
    expect(parse(port, undefined)).toMatchObject({ success: true, data: 5 });
    expect(parse(port, '10')).toMatchObject({ success: true, data: 10 });
    for (const text of ['11', '0', '1.5', '1e1', ' 3', 'abc']) expect(parse(port, text).success).toBe(false);
  });

  it('envBool reads true/false, 1/0, yes/no', () => {
    const flag = envBool(false);
    expect(['true', '1', 'yes'].map((v) => parse(flag, v).data)).toEqual([true, true, true]);
    expect(['false', '0', 'no'].map((v) => parse(flag, v).data)).toEqual([false, false, false]);
    expect(parse(flag, 'maybe').success).toBe(false);
    expect(parse(flag, undefined).data).toBe(false);
  });

  it('envUrl checks the protocol', () => {
    const url = envUrl(['http:', 'https:']);
    expect(parse(url, 'https://auth:3001').success).toBe(true);
    expect(parse(url, 'ftp://x').success).toBe(false);
    expect(parse(url, 'auth:3001:x').success).toBe(false);
  });

  it('envList splits on commas, trims and drops empty items', () => {
    expect(parse(envList(), ' a, b,,c ').data).toEqual(['a', 'b', 'c']);
    expect(parse(envList(['x']), undefined).data).toEqual(['x']);
  });
});
