import { z } from '@mt/contracts';
import { errors } from '@mt/errors';
import { defineEndpoint, PUBLIC, reply, STREAMED, type EndpointGroup } from '@mt/endpoints';
import type { RouteTable } from '@mt/registry-client';
import { CategoryListSchema, OpenApiDocumentSchema } from './discovery.schemas';
import { DOCS_ASSETS, docsPageHtml, sendDocsAsset } from './docs-page';
import type { OpenApiDocument } from './openapi-document';

export const GATEWAY_MOUNT = '/api/v1';

/**
 * The gateway's own public endpoints: live categories, the merged API description and the docs page with
 * its assets. They are routed like every service's endpoints (from this group's manifest), but answered here.
 */
export function discoveryEndpoints(deps: { routeTable: RouteTable; openApi: OpenApiDocument }): EndpointGroup {
  const { routeTable, openApi } = deps;
  return {
    namespace: 'gateway',
    mount: GATEWAY_MOUNT,
    tags: [{ name: 'discovery', description: 'Live categories and this API description' }],
    endpoints: [
      defineEndpoint({
        name: 'list categories',
        method: 'GET',
        path: '/categories',
        access: PUBLIC,
        summary: 'List live categories',
        description:
          'Every category with at least one live catalog instance, sorted by id, with what a client needs to label it. Registrations and expiries show here within seconds.',
        responses: { 200: { description: 'Live categories', schema: CategoryListSchema } },
        handle() {
          // name and endpoint follow from the id (docs/api.md "Discovering the API"), whatever a registration said.
          const categories = routeTable.categories().map((category) => ({ ...category, name: category.id, endpoint: `${GATEWAY_MOUNT}/${category.id}` }));
          return reply.ok(categories, { 'Cache-Control': 'no-cache' });
        },
      }),
      defineEndpoint({
        name: 'get open api document',
        method: 'GET',
        path: '/openapi.json',
        access: PUBLIC,
        summary: 'This API description (OpenAPI 3.0)',
        description:
          "One document for the whole public API: the gateway, the auth service and every category. A category whose instances are all restarting stays in it (its operations answer 503 meanwhile), so clients generated from it do not lose types; a category an operator has removed leaves it.",
        responses: { 200: { description: 'The OpenAPI document', schema: OpenApiDocumentSchema } },
        async handle({ res }) {
          res.setHeader('Cache-Control', 'no-cache');
          res.type('application/json').send(await openApi.json());
          return STREAMED;
        },
      }),
      defineEndpoint({
        name: 'get docs page',
        method: 'GET',
        path: '/docs',
        access: PUBLIC,
        summary: 'Interactive API documentation',
        description: 'Swagger UI served by the gateway itself (no external host), with "try it out" against this origin.',
        responses: { 200: { description: 'An HTML page', schema: z.string(), contentType: 'text/html' } },
        handle({ res }) {
          docsPageHtml(res);
          return STREAMED;
        },
      }),
      defineEndpoint({
        name: 'get docs asset',
        method: 'GET',
        path: '/docs/{asset}',
        access: PUBLIC,
        summary: 'A file of the documentation page (script, style sheet, icon)',
        params: z.strictObject({ asset: z.string().max(100).openapi({ description: `The file: one of ${DOCS_ASSETS.join(', ')}` }) }),
        query: z.strictObject({ v: z.string().max(40).optional().openapi({ description: 'Cache buster: the asset version' }) }),
        responses: { 200: { description: 'The file', schema: z.string().openapi({ format: 'binary' }), contentType: 'application/octet-stream' } },
        async handle({ params, req, res }) {
          const asset = DOCS_ASSETS.find((file) => file === params.asset);
          if (!asset) throw errors.notFound(`no route for ${req.path}`);
          await sendDocsAsset(asset, res, () => openApi.json());
          return STREAMED;
        },
      }),
    ],
  };
}
