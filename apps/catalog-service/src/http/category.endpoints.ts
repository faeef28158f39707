import type { EndpointGroup } from '@mt/endpoints';
import { categoryBasePath, type CategoryDefinition } from '../domain/categories';
import type { CatalogService } from '../features/catalog/catalog.service';
import type { ListChangesService } from '../features/list-changes/list-changes.service';
import type { ListExportService } from '../features/list-export/list-export.service';
import type { ImportsService } from '../features/list-import/list-import.service';
import type { ListStatsService } from '../features/list-stats/list-stats.service';
import type { ListService } from '../features/list/list.service';
import type { ModerationService } from '../features/moderation/moderation.service';
import type { EpisodesService } from '../features/episodes/episodes.service';
import { episodesEndpoints } from './episodes.endpoints';
import type { PlaysService } from '../features/plays/plays.service';
import type { PlayBatch } from '../features/plays/play-batch';
import type { ProgressService } from '../features/progress/progress.service';
import { playsEndpoints } from './plays.endpoints';
import { progressEndpoints } from './progress.endpoints';
import { catalogEndpoints } from './catalog.endpoints';
import { listChangesEndpoints } from './list-changes.endpoints';
import { listExportEndpoints } from './list-export.endpoints';
import { importEndpoints } from './list-import.endpoints';
import { hasListFileFormats } from '../domain/list-file-formats';
import { listStatsEndpoints } from './list-stats.endpoints';
import { listEndpoints } from './list.endpoints';
import { moderationEndpoints } from './moderation.endpoints';
import { providerEndpoints } from './providers.endpoints';
import type { ProviderSearchService } from '../features/providers/provider-search.service';
import type { ProviderImportService } from '../features/providers/provider-import.service';
import type { ProviderMatchService } from '../features/providers/provider-match.service';

/** The use cases a category's endpoints call, as the wiring hands them over (composition/). */
export interface CategoryServices {
  readonly category: CategoryDefinition;
  readonly catalog: CatalogService;
  readonly moderation: ModerationService;
  readonly listFeed: ListChangesService;
  readonly listStats: ListStatsService;
  readonly listExport: ListExportService;
  readonly imports: ImportsService;
  readonly lists: ListService;
  readonly providerSearch: ProviderSearchService;
  readonly providerImports: ProviderImportService;
  /** The scrobble service's provider step (an internal endpoint). */
  readonly providerMatch: ProviderMatchService;
  readonly plays: PlaysService;
  readonly playBatch: PlayBatch;
  /** Present when the category is episodic. */
  readonly episodes: EpisodesService | null;
  readonly progress: ProgressService | null;
}

/**
 * Every public endpoint of one category: the shared catalog (reads, then writes), the personal list, and
 * whatever the category's definition adds of its own. The router, the OpenAPI fragment and the route
 * manifest the gateway routes by are all derived from this one list.
 */
export function categoryEndpoints(module: CategoryServices): EndpointGroup {
  const { category } = module;
  const listTag = `${category.id} list`;
  return {
    namespace: category.id,
    mount: categoryBasePath(category),
    tags: [
      { name: category.id, description: `${category.displayName}: ${category.description}` },
      { name: listTag, description: `Your ${category.displayName} list` },
    ],
    endpoints: [...catalogEndpoints(category, module.catalog), ...moderationEndpoints(category, module.moderation), ...(category.providers ? providerEndpoints(category, module.providerSearch, module.providerImports) : []), ...listChangesEndpoints(module.listFeed, listTag), ...listStatsEndpoints(module.listStats, listTag), ...(hasListFileFormats(category) ? [...listExportEndpoints(category, module.listExport, listTag), ...importEndpoints(category, module.imports, listTag)] : []), ...(module.progress ? progressEndpoints(module.progress, listTag) : []), ...playsEndpoints(module.plays, module.playBatch, listTag), ...listEndpoints(module.lists, listTag), ...(module.episodes ? episodesEndpoints(category, module.episodes) : []), ...(category.endpoints?.({ category, catalog: module.catalog, lists: module.lists }) ?? [])],
  };
}
