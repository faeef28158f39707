import { defineRoute } from '@mt/http';
import { requireIdentity, requireScope } from '@mt/identity';
import { parseBody, parseParams, parseQuery } from '@mt/validation';
import type { Router } from 'express';
import type { CategoryDefinition } from '../categories/categories';
import { NoQuerySchema } from '../shared/common.schemas';
import { listSchemas } from './list.schemas';
import type { ListService } from './list.service';

/** The caller's list (API.md §6): /list, /list/{item_id}, /bulk-status, /bulk-delete. */
export function listRoutes(router: Router, category: CategoryDefinition, service: ListService): void {
  const schemas = listSchemas(category);
  const userOf = (req: Parameters<typeof requireIdentity>[0]) => requireIdentity(req).userId;

  defineRoute(router, '/list', {
    get: [
      requireScope('list:read'),
      async (req, res) => {
        res.json(await service.page(userOf(req), parseQuery(schemas.ListQuery, req)));
      },
    ],
    post: [
      requireScope('list:write'),
      async (req, res) => {
        parseQuery(NoQuerySchema, req);
        const body = parseBody(schemas.AddListEntry, req);
        res.status(201).json(await service.add(userOf(req), body));
      },
    ],
  });

  defineRoute(router, '/list/:item_id', {
    get: [
      requireScope('list:read'),
      async (req, res) => {
        const { item_id } = parseParams(schemas.ItemIdParams, req);
        parseQuery(NoQuerySchema, req);
        res.json(await service.get(userOf(req), item_id));
      },
    ],
    patch: [
      requireScope('list:write'),
      async (req, res) => {
        const { item_id } = parseParams(schemas.ItemIdParams, req);
        parseQuery(NoQuerySchema, req);
        const patch = parseBody(schemas.PatchListEntry, req);
        res.json(await service.update(userOf(req), item_id, patch));
      },
    ],
    delete: [
      requireScope('list:write'),
      async (req, res) => {
        const { item_id } = parseParams(schemas.ItemIdParams, req);
        parseQuery(NoQuerySchema, req);
        res.json(await service.remove(userOf(req), item_id));
      },
    ],
  });

  defineRoute(router, '/bulk-status', {
    post: [
      requireScope('list:write'),
      async (req, res) => {
        parseQuery(NoQuerySchema, req);
        const { item_ids, status } = parseBody(schemas.BulkStatus, req);
        res.json(await service.bulkStatus(userOf(req), item_ids, status));
      },
    ],
  });

  defineRoute(router, '/bulk-delete', {
    post: [
      requireScope('list:write'),
      async (req, res) => {
        parseQuery(NoQuerySchema, req);
        const { item_ids } = parseBody(schemas.BulkDelete, req);
        res.json(await service.bulkDelete(userOf(req), item_ids));
      },
    ],
  });
}
