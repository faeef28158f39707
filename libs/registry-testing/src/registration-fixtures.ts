// Registrations as a service instance sends them: derived from a small endpoint group, as the services do.
import { z, type InstanceRegistration } from '@mt/contracts';
import { defineEndpoint, PUBLIC, reply, scope, type EndpointGroup } from '@mt/endpoints';
import { serviceRegistration } from '@mt/registry-client';

const TITLES: Record<string, { display: string; icon: string }> = {
  movies: { display: 'Movies', icon: 'film' },
  tvshows: { display: 'TV Shows', icon: 'tv' },
  books: { display: 'Books', icon: 'book' },
};

export function categoryRecord(id: string) {
  const known = TITLES[id] ?? { display: id, icon: 'tag' };
  return { id, name: id, display_name: known.display, description: `${known.display} catalog`, endpoint: `/api/v1/${id}`, icon: known.icon };
}

/** A category with two endpoints: a public read, and a scoped list read (`extra` adds one more route). */
export function sampleGroup(id: string, extra = false): EndpointGroup {
  const entry = z.object({ id: z.string(), title: z.string() }).openapi(`${id[0]!.toUpperCase()}${id.slice(1)}Entry`);
  const endpoints = [
    defineEndpoint({
      name: 'get entry',
      method: 'GET',
      path: '/{id}',
      access: PUBLIC,
      summary: `Get one ${id} entry`,
      params: z.strictObject({ id: z.string() }),
      responses: { 200: { description: 'The entry', schema: entry } },
      handle: () => reply.ok({}),
    }),
    defineEndpoint({
      name: 'get list',
      method: 'GET',
      path: '/list',
      access: scope('list:read'),
      summary: 'Your list',
      responses: { 200: { description: 'The list', schema: z.array(entry) } },
      handle: () => reply.ok([]),
    }),
  ];
  if (extra) {
    endpoints.push(
      defineEndpoint({ name: 'get stats', method: 'GET', path: '/list/stats', access: scope('list:read'), summary: 'Stats', responses: { 200: { description: 'Stats' } }, handle: () => reply.ok({}) }),
    );
  }
  return { namespace: id, mount: `/api/v1/${id}`, tags: [{ name: id, description: `${id} catalog` }], endpoints };
}

export function sampleRegistration(id: string, baseUrl: string, version = '1.0.0', extra = false): InstanceRegistration {
  return serviceRegistration({ service: id, category: categoryRecord(id), baseUrl, version, groups: [sampleGroup(id, extra)] });
}
