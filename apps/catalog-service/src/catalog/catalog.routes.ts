import { defineRoute } from '@mt/http';
import { requireIdentity, requireScope } from '@mt/identity';
import { parseBody, parseParams, parseQuery } from '@mt/validation';
import type { Router } from 'express';
import { categoryBasePath, type CategoryDefinition } from '../categories/categories';
import { NoQuerySchema } from '../shared/common.schemas';
import { catalogSchemas, type CatalogListQuery, type EntryFieldsInput } from './catalog.schemas';
import type { CatalogService } from './catalog.service';

/** GET/POST /api/v1/{category} and GET/PATCH /api/v1/{category}/{id} (API.md §5). Reads are public. */
export function catalogRoutes(router: Router, category: CategoryDefinition, service: CatalogService): void {
  const schemas = catalogSchemas(category);

  defineRoute(router, '/', {
    get: async (req, res) => {
      const query: CatalogListQuery = parseQuery(schemas.ListQuery, req);
      res.json(await service.list(query));
    },
    post: [
      requireScope('catalog:write'),
      async (req, res) => {
        parseQuery(NoQuerySchema, req);
        // The schema's own fields are keyed by name at runtime; zod has validated every one of them.
        const body = parseBody(schemas.CreateEntry, req) as EntryFieldsInput & { title: string };
        const entry = await service.create(body, requireIdentity(req).userId);
        res.status(201).location(`${categoryBasePath(category)}/${String(entry['id'])}`).json(entry);
      },
    ],
  });

  defineRoute(router, '/:id', {
    get: async (req, res) => {
      const { id } = parseParams(schemas.IdParams, req);
      parseQuery(NoQuerySchema, req);
      res.json(await service.get(id));
    },
    patch: [
      requireScope('catalog:write'),
      async (req, res) => {
        const { id } = parseParams(schemas.IdParams, req);
        parseQuery(NoQuerySchema, req);
        const patch = parseBody(schemas.PatchEntry, req) as EntryFieldsInput;
        res.json(await service.update(id, patch, requireIdentity(req).userId));
      },
    ],
  });
}
