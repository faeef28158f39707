import type { EndpointGroup } from '@mt/endpoints';
import type { CatalogModule } from '../composition/catalog-module';
import { categoryBasePath } from '../domain/categories';
import { catalogEndpoints } from './catalog.endpoints';
import { listChangesEndpoints } from './list-changes.endpoints';
import { listExportEndpoints } from './list-export.endpoints';
import { importEndpoints } from './list-import.endpoints';
import { hasListFileFormats } from '../domain/list-file-formats';
import { listStatsEndpoints } from './list-stats.endpoints';
import { listEndpoints } from './list.endpoints';
import { moderationEndpoints } from './moderation.endpoints';

/**
 * Every public endpoint of one category: the shared catalog (reads, then writes), the personal list, and
 * whatever the category's definition adds of its own. The router, the OpenAPI fragment and the route
 * manifest the gateway routes by are all derived from this one list.
 */
export function categoryEndpoints(module: CatalogModule): EndpointGroup {
  const { category } = module;
  const listTag = `${category.id} list`;
  return {
    namespace: category.id,
    mount: categoryBasePath(category),
    tags: [
      { name: category.id, description: `${category.displayName}: ${category.description}` },
      { name: listTag, description: `Your ${category.displayName} list` },
    ],
    endpoints: [...catalogEndpoints(category, module.catalog), ...moderationEndpoints(category, module.moderation), ...listChangesEndpoints(module.listFeed, listTag), ...listStatsEndpoints(module.listStats, listTag), ...(hasListFileFormats(category) ? [...listExportEndpoints(category, module.listExport, listTag), ...importEndpoints(category, module.imports, listTag)] : []), ...listEndpoints(module.lists, listTag), ...(category.endpoints?.({ category, catalog: module.catalog }) ?? [])],
  };
}
