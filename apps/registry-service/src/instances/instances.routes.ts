import { defineRoute } from '@mt/http';
import { parseBody, parseParams } from '@mt/validation';
import { Router } from 'express';
import { HeartbeatBodySchema, InstanceParamsSchema, RegistrationBodySchema } from './instances.schemas';
import type { InstancesService } from './instances.service';

/** The registry's internal API (callers: catalog instances and the gateway; the internal secret is checked before). */
export function createInstancesRouter(service: InstancesService): Router {
  const router = Router();

  defineRoute(router, '/internal/instances/:instanceId', {
    put: async (req, res) => {
      const { instanceId } = parseParams(InstanceParamsSchema, req);
      const registration = parseBody(RegistrationBodySchema, req);
      const { created } = await service.register(instanceId, registration);
      res.status(created ? 201 : 200).json({ instance_id: instanceId, ttl_ms: service.ttlMs });
    },
    delete: async (req, res) => {
      const { instanceId } = parseParams(InstanceParamsSchema, req);
      await service.deregister(instanceId);
      res.json({ message: 'instance deregistered' });
    },
  });

  defineRoute(router, '/internal/instances/:instanceId/heartbeat', {
    post: async (req, res) => {
      const { instanceId } = parseParams(InstanceParamsSchema, req);
      parseBody(HeartbeatBodySchema, req);
      await service.heartbeat(instanceId);
      res.json({ instance_id: instanceId, ttl_ms: service.ttlMs });
    },
  });

  defineRoute(router, '/internal/routes', {
    get: async (_req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      res.json(await service.routeTable());
    },
  });

  return router;
}
