import { MessageSchema, RouteTableSchema } from '@mt/contracts';
import { defineEndpoint, INTERNAL, reply, type EndpointGroup } from '@mt/endpoints';
import { HeartbeatBodySchema, InstanceParamsSchema, RegisteredSchema, RegistrationBodySchema, ServiceParamsSchema } from './instances.schemas';
import type { InstancesService } from './instances.service';

/**
 * The registry's API, all internal (callers: service instances and the gateway, with the internal secret):
 * writes would let anyone route traffic, reads expose the topology.
 */
export function instancesEndpoints(service: InstancesService): EndpointGroup {
  return {
    namespace: 'registry',
    mount: '/internal',
    tags: [{ name: 'registry', description: 'Service registrations' }],
    endpoints: [
      defineEndpoint({
        name: 'register instance',
        method: 'PUT',
        path: '/instances/{instance_id}',
        access: INTERNAL,
        summary: 'Register (or refresh) an instance',
        params: InstanceParamsSchema,
        body: RegistrationBodySchema,
        responses: { 200: { description: 'Refreshed', schema: RegisteredSchema }, 201: { description: 'Registered', schema: RegisteredSchema } },
        async handle({ params, body }) {
          const { created } = await service.register(params.instance_id, body);
          return reply.status(created ? 201 : 200, { instance_id: params.instance_id, ttl_ms: service.ttlMs });
        },
      }),
      defineEndpoint({
        name: 'deregister instance',
        method: 'DELETE',
        path: '/instances/{instance_id}',
        access: INTERNAL,
        summary: 'Deregister an instance',
        params: InstanceParamsSchema,
        responses: { 200: { description: 'Deregistered', schema: MessageSchema } },
        async handle({ params }) {
          await service.deregister(params.instance_id);
          return reply.ok({ message: 'instance deregistered' });
        },
      }),
      defineEndpoint({
        name: 'heartbeat',
        method: 'POST',
        path: '/instances/{instance_id}/heartbeat',
        access: INTERNAL,
        summary: 'Heartbeat; 404 means "register again"',
        params: InstanceParamsSchema,
        body: HeartbeatBodySchema,
        responses: { 200: { description: 'Still live', schema: RegisteredSchema } },
        async handle({ params }) {
          await service.heartbeat(params.instance_id);
          return reply.ok({ instance_id: params.instance_id, ttl_ms: service.ttlMs });
        },
      }),
      defineEndpoint({
        name: 'forget service',
        method: 'DELETE',
        path: '/services/{service}',
        access: INTERNAL,
        summary: 'Forget a service that has no live instance (its routes then answer 404)',
        params: ServiceParamsSchema,
        responses: { 200: { description: 'Forgotten', schema: MessageSchema } },
        errors: [409],
        async handle({ params }) {
          await service.forgetService(params.service);
          return reply.ok({ message: 'service forgotten' });
        },
      }),
      defineEndpoint({
        name: 'route table',
        method: 'GET',
        path: '/routes',
        access: INTERNAL,
        summary: 'Every known service with its live instances, manifest and OpenAPI fragment',
        description:
          'With `If-None-Match` naming the current table\'s `ETag`, a 304 without a body: every gateway reads the ' +
          'table every few seconds, and parsing all manifests and OpenAPI fragments again when nothing changed ' +
          'cost each gateway several milliseconds of CPU per read.',
        responses: {
          200: { description: 'The route table', schema: RouteTableSchema, headers: { ETag: { description: 'Names this table', schema: { type: 'string' } } } },
          304: { description: 'The table is the one the `If-None-Match` names' },
        },
        async handle({ req }) {
          const { table, version } = await service.routeTable();
          const etag = `"${version}"`;
          const headers = { ETag: etag, 'Cache-Control': 'no-cache' };
          if (req.headers['if-none-match'] === etag) return reply.status(304, undefined, headers);
          return reply.ok(table, headers);
        },
      }),
    ],
  };
}
