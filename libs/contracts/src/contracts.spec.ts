import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { buildErrorPayload } from '@mt/errors';
import { ErrorPayloadSchema } from './error-payload.schema';
import { generateFragment } from './openapi-fragment';
import { redisKeys } from './redis-keys';
import { bearerSecurity, registerBearerAuth } from './security';
import { z } from './zod';

describe('contracts', () => {
  it('puts every shared Redis key, channel and stream under the configured prefix', () => {
    const keys = redisKeys('stack-a:');
    const names = [
      keys.jwtCutoff('u1'),
      keys.patCache('h'),
      keys.loginFailures('alice'),
      keys.patLastUsed('t1'),
      keys.rateLimit('user:u1', 42),
      keys.idempotency('user:u1', 'h'),
      keys.idempotencyAnswers('user:u1'),
      keys.idempotencyBytes('user:u1'),
      keys.userEvents(),
      keys.registryInstances(),
      keys.registryInstance('movies-1'),
      keys.registryChanges(),
      keys.registryServices(),
      keys.registryWatching(),
    ];
    expect(names.every((name) => name.startsWith('stack-a:'))).toBe(true);
    expect(new Set(names).size).toBe(names.length);
  });

  it('accepts the payload the error middleware renders', () => {
    const payload = buildErrorPayload({
      message: 'duplicate',
      status: 409,
      code: 'conflict',
      requestId: 'req-1',
      extra: { existing_id: 'a'.repeat(24) },
    });
    expect(ErrorPayloadSchema.safeParse(payload).success).toBe(true);
    expect(ErrorPayloadSchema.safeParse({ ...payload, code: 'teapot' }).success).toBe(false);
  });

  it('generates an OpenAPI fragment with the paths and the components they use', () => {
    const registry = new OpenAPIRegistry();
    registerBearerAuth(registry);
    const Thing = registry.register('Thing', z.object({ id: z.string() }));
    registry.registerPath({
      method: 'get',
      path: '/api/v1/things',
      security: bearerSecurity,
      responses: {
        200: { description: 'a thing', content: { 'application/json': { schema: Thing } } },
        401: { description: 'no', content: { 'application/json': { schema: ErrorPayloadSchema } } },
      },
    });
    const fragment = generateFragment(registry);
    expect(Object.keys(fragment.paths)).toEqual(['/api/v1/things']);
    expect(Object.keys(fragment.components['schemas'] ?? {})).toEqual(expect.arrayContaining(['Thing', 'Error']));
    expect(fragment.components['securitySchemes']).toHaveProperty('bearerAuth');
  });
});
