import { IntrospectionRequestSchema, IntrospectionResultSchema, JwtCutoffSchema, objectIdParam, z } from '@mt/contracts';
import { defineEndpoint, INTERNAL, reply, type EndpointGroup } from '@mt/endpoints';
import type { JwtKeySet } from '../jwt/key-store';
import type { IntrospectionService } from './introspection.service';

/** Endpoints for the other services (internal secret); the gateway never routes public traffic here. */
export function internalEndpoints(deps: { keys: JwtKeySet; introspection: IntrospectionService }): EndpointGroup {
  const { keys, introspection } = deps;
  return {
    namespace: 'authInternal',
    mount: '/internal',
    tags: [{ name: 'internal', description: 'Service-to-service calls' }],
    endpoints: [
      defineEndpoint({
        name: 'jwks',
        method: 'GET',
        path: '/jwks',
        access: INTERNAL,
        summary: 'The public keys that verify JWTs (RFC 7517)',
        responses: { 200: { description: 'JWKS', schema: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }) } },
        handle() {
          return reply.ok(keys.jwks, { 'Cache-Control': 'public, max-age=300' });
        },
      }),
      defineEndpoint({
        name: 'introspect',
        method: 'POST',
        path: '/introspect',
        access: INTERNAL,
        summary: 'Introspect a personal access token',
        body: IntrospectionRequestSchema,
        responses: { 200: { description: 'Active or not', schema: IntrospectionResultSchema } },
        async handle({ body }) {
          return reply.ok(await introspection.introspect(body.token), { 'Cache-Control': 'no-store' });
        },
      }),
      defineEndpoint({
        name: 'jwt cutoff',
        method: 'GET',
        path: '/users/{id}/jwt-cutoff',
        access: INTERNAL,
        summary: "A user's JWT cut-off",
        params: z.strictObject({ id: objectIdParam() }),
        responses: { 200: { description: 'The cut-off', schema: JwtCutoffSchema } },
        async handle({ params }) {
          return reply.ok(await introspection.jwtCutoff(params.id), { 'Cache-Control': 'no-store' });
        },
      }),
    ],
  };
}
