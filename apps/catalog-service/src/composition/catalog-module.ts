import type { Logger } from '@mt/logging';
import { CursorCodec } from '@mt/pagination';
import type { Connection } from 'mongoose';
import type { CategoryDefinition } from '../domain/categories';
import { CatalogRepository } from '../data/catalog.repository';
import { CatalogListingReader } from '../data/catalog-listing.reader';
import { CatalogService } from '../features/catalog/catalog.service';
import { ListChangesRepository } from '../data/list-changes.repository';
import { ListChangesService } from '../features/list-changes/list-changes.service';
import { ListFeedReader } from '../data/list-feed.reader';
import { ListExportService } from '../features/list-export/list-export.service';
import { ImportJobsRepository } from '../data/import-jobs.repository';
import { ImportMatcher } from '../features/list-import/import-matcher';
import { ImportQueue, type ImportQueueOptions } from '../workers/import-queue';
import { ImportRunner } from '../features/list-import/import-runner';
import { ImportsService } from '../features/list-import/list-import.service';
import { UploadAdmission } from '../features/list-import/upload-admission';
import { ListStatsService } from '../features/list-stats/list-stats.service';
import { ListPlaysReader } from '../data/list-plays.reader';
import { ImportPlays } from '../features/list-import/import-plays';
import { UserDeletionService } from '../features/account-deletion/account-deletion.service';
import { ItemGuardsRepository } from '../data/item-guards.repository';
import { ListEntryImportsRepository } from '../data/list-entry-imports.repository';
import { runMigrations } from '../migrations/run-migrations';
import { createMigrationContext } from '../migrations/migration';
import { ListOwnersRepository } from '../data/list-owners.repository';
import { ListRepository } from '../data/list.repository';
import { LIST_RANGE_FIELDS } from '../data/list-entry.document';
import { ListPageReader } from '../data/list-page.reader';
import { ListService } from '../features/list/list.service';
import { ListEntryViews } from '../features/list/list-entry.response';
import { ListImportBatches } from '../features/list/list-import-batches';
import { ListItemCascades } from '../features/list/list-item-cascades';
import { ListWrites } from '../features/list/list-writes';
import { EntryRedirectsRepository } from '../data/entry-redirects.repository';
import { ModerationService } from '../features/moderation/moderation.service';
import { AtomicRunner } from '../data/atomic';
import { EpisodesRepository } from '../data/episodes.repository';
import { EpisodesService } from '../features/episodes/episodes.service';
import { PlaysRepository } from '../data/plays.repository';
import { PlayRecorder } from '../features/plays/play-recorder';
import { PlaysService } from '../features/plays/plays.service';
import { PlayBatch } from '../features/plays/play-batch';
import { ProgressService } from '../features/progress/progress.service';
import { ChosenStoreProfile, SortingStoreProfile, type RangeHintsTuning, type StoreProfileSetting } from '../data/store-profile/store-profile';
import { CatalogDatabase, COLLECTIONS } from '../data/database';
import { SORT_KEY_FIELDS } from '../domain/catalog-listing';
import { createProviders, imageSourcesOf, memoryAnswerCache, providersOfCategory, redisAnswerCache, type ImageSources, type ProviderClientOptions, type ProviderSettings } from '@mt/providers';
import type { Redis } from '@mt/stores';
import { CategoryProviders } from '../features/providers/category-providers';
import { ProviderSearchService } from '../features/providers/provider-search.service';
import { ProviderImportService } from '../features/providers/provider-import.service';
import { ProviderMatchService } from '../features/providers/provider-match.service';
import { ProviderRowFill } from '../features/providers/provider-row-fill';
import { ProviderSearchQuotaRepository } from '../data/provider-search-quota.repository';
import type { SearchQuotaLimits } from '../domain/provider-search-limits';
import { RefreshClaimsRepository } from '../data/refresh-claims.repository';
import { WatchingItemsReader } from '../data/watching-items.reader';
import { ShowRefreshWorker } from '../workers/show-refresh.worker';
import { PROGRESS_LENGTH_FIELDS } from '@mt/domain';
import type { Id } from '../domain/ids';

/** The work's length in its progress unit (a movie's runtime), when known. */
async function lengthOf(catalog: CatalogRepository, itemId: Id, field: string): Promise<number | null> {
  const value = (await catalog.findById(itemId))?.own[field];
  return typeof value === 'number' ? value : null;
}

export interface CatalogModuleOptions {
  category: CategoryDefinition;
  connection: Connection;
  logger: Logger;
  /** Key material for page cursors shared by every instance (INTERNAL_SECRET): any instance accepts any instance's cursors. */
  cursorSecret: string;
  /** STORE_PROFILE: `mongodb`, `sorting`, or `auto` (the default: the connected server's query plans decide). */
  storeProfile?: StoreProfileSetting;
  /** Tests shrink the samples and thresholds to exercise the range hints (catalog and lists) on small data. */
  sortHints?: RangeHintsTuning;
  now?: () => Date;
  /** The import queue on Redis (BullMQ); without it, import requests answer 503 (tools that only read). */
  imports?: Omit<ImportQueueOptions, 'category' | 'logger'>;
  /** IMPORT_UPLOADS_AT_ONCE. */
  importUploadsAtOnce?: number;
  /** The metadata providers configuration enables; without it, none. */
  providers?: ProvidersOptions;
}

export interface ProvidersOptions {
  settings: ProviderSettings;
  /** Where provider answers are cached, searches counted and daily refreshes claimed, shared by the category's instances. */
  redis: Redis;
  redisKeyPrefix: string;
  client?: ProviderClientOptions;
  searchLimits?: SearchQuotaLimits;
  /** How often the daily refresh of watched shows looks for work. */
  refreshIntervalMs?: number;
}

/** The category's services wired to one MongoDB connection; `prepare()` runs once connected. */
export function createCatalogModule({ category, connection, logger, cursorSecret, storeProfile: storeProfileSetting = 'auto', sortHints, now, imports, importUploadsAtOnce, providers }: CatalogModuleOptions) {
  const cursors = new CursorCodec({ secret: cursorSecret });
  const db = new CatalogDatabase(connection);
  const atomic = new AtomicRunner(connection, logger);
  // The one place that differs by server; chosen in prepare(), once connected.
  const storeProfile: ChosenStoreProfile = new ChosenStoreProfile(
    (): SortingStoreProfile =>
      new SortingStoreProfile({
        logger,
        catalog: { fields: SORT_KEY_FIELDS, loadSample: (size) => catalogListing.loadSortKeySample(size), countEntries: () => catalogListing.entryCount() },
        lists: { fields: LIST_RANGE_FIELDS, loadSample: (userId, size) => listRepository.sampleSortKeys(userId, size), countEntries: (userId) => listRepository.count(userId, undefined) },
        tuning: sortHints,
      }),
  );
  const catalogRepository = new CatalogRepository(db);
  const catalogListing: CatalogListingReader = new CatalogListingReader(db, storeProfile);
  const listRepository = new ListRepository(db, storeProfile);
  const itemGuards = new ItemGuardsRepository(db);
  const listOwners = new ListOwnersRepository(db);
  const listChanges = new ListChangesRepository(db);
  const redirects = new EntryRedirectsRepository(db);
  const images = imageSourcesOf(providers?.settings ?? {});
  // Only episodic categories keep episodes (the definition says so; nothing else names a category).
  const episodesRepository = category.episodic ? new EpisodesRepository(db) : null;
  const plays = new PlaysRepository(db);
  const listFeedReader = new ListFeedReader(listRepository, listChanges, storeProfile, plays, episodesRepository);
  const catalog = new CatalogService({ category, entries: catalogRepository, listing: catalogListing, lists: listRepository, guards: itemGuards, redirects, atomic, cursors, now, images });
  const episodes = episodesRepository ? new EpisodesService({ category, episodes: episodesRepository, entries: catalogRepository, atomic, now }) : null;
  const metadata = createMetadataProviders({ category, providers, catalog, catalogRepository, episodes, db, logger, images });
  const importJobs = new ImportJobsRepository(db);
  const importQueue = imports ? new ImportQueue({ ...imports, category: category.id, logger }) : null;
  const listWrites = new ListWrites({ owners: listOwners, changes: listChanges, atomic, now });
  const listEntryViews = new ListEntryViews(images);
  const lists = new ListService({
    lists: listRepository,
    pages: new ListPageReader(listRepository, storeProfile),
    owners: listOwners,
    catalog: catalogRepository,
    views: listEntryViews,
    writes: listWrites,
    plays,
    progressCap: category.progressUnit === 'minutes' ? (itemId) => lengthOf(catalogRepository, itemId, PROGRESS_LENGTH_FIELDS.minutes) : undefined,
    cursors,
    now,
  });
  const playRecorder = new PlayRecorder({ category, plays, lists: listRepository, owners: listOwners, catalog: catalogRepository, episodes: episodesRepository });
  const listImports = new ListImportBatches({ lists: listRepository, imports: new ListEntryImportsRepository(db, storeProfile), guards: itemGuards, catalog: catalogRepository, owners: listOwners, writes: listWrites });
  const listItemCascades = new ListItemCascades({ lists: listRepository, guards: itemGuards, owners: listOwners, changes: listChanges, plays, now });
  const listPlays = new ListPlaysReader(db, category.progressUnit === 'minutes' ? PROGRESS_LENGTH_FIELDS.minutes : null);
  const importRunner = new ImportRunner({ category, plays: new ImportPlays({ recorder: playRecorder, episodic: category.episodic !== undefined, lists: listRepository, plays: listPlays }), jobs: importJobs, lists: listImports, catalog: catalogRepository, matcher: new ImportMatcher(category, catalogRepository, metadata.rowFill), logger, now });

  const migrationContext = createMigrationContext({ category, db, atomic, catalog: catalogRepository });

  return {
    category,
    connection,
    atomic,
    storeProfile,
    catalogRepository,
    catalogListing,
    listRepository,
    migrationContext,
    listOwners,
    listChanges,
    listFeedReader,
    cursors,
    catalog,
    lists,
    listImports,
    listItemCascades,
    moderation: new ModerationService({ category, entries: catalogRepository, lists: listItemCascades, redirects, episodes: episodesRepository, atomic, now, images }),
    episodesRepository,
    episodes,
    categoryProviders: metadata.categoryProviders,
    providerSearch: metadata.search,
    providerImports: metadata.imports,
    providerMatch: metadata.match,
    showRefresh: metadata.showRefresh,
    playsRepository: plays,
    plays: new PlaysService({ recorder: playRecorder, plays, lists: listRepository, catalog: catalogRepository, views: listEntryViews, episodes: episodesRepository, writes: listWrites, cursors, now }),
    /** Many items' plays at once: the batch endpoint, and imports (with `source` `import:<source>`). */
    playBatch: new PlayBatch({ category, catalog: catalogRepository, recorder: playRecorder, writes: listWrites, now }),
    progress: episodesRepository ? new ProgressService({ lists: listRepository, plays, episodes: episodesRepository, cursors, now }) : null,
    importJobs,
    importRunner,
    imports: new ImportsService({ category, jobs: importJobs, queue: importQueue, cursors, now, admission: new UploadAdmission(importUploadsAtOnce) }),
    listExport: new ListExportService(category, listRepository, listPlays, now, images),
    listStats: new ListStatsService({
      owners: listOwners,
      plays: listPlays,
      episodic: category.episodic !== undefined,
    }),
    listFeed: new ListChangesService(listFeedReader, listOwners, listEntryViews, now),
    userDeletion: new UserDeletionService({ lists: listRepository, owners: listOwners, changes: listChanges, catalog: catalogRepository, imports: importJobs, plays, atomic, now }),

    /** Detects transactions, ensures every index, reconciles the entry counter, runs the migrations, chooses the store profile. */
    async prepare(): Promise<void> {
      await atomic.detect();
      await Promise.all([catalogRepository.ensureIndexes(), listRepository.ensureIndexes(), listChanges.ensureIndexes(), redirects.ensureIndexes(), importJobs.ensureIndexes(), episodesRepository?.ensureIndexes(), plays.ensureIndexes()]);
      await runMigrations(migrationContext, logger);
      // After the migrations: reconciling also moves the catalog's version past anything they rewrote, so no
      // instance serves a listing cached from before them.
      await atomic.run((session) => catalogRepository.reconcileEntryCount(session));
      const profile = await storeProfile.choose(storeProfileSetting, db.collection(COLLECTIONS.entries));
      logger.debug({ store_profile: profile }, 'store profile chosen (docs/operations.md, "Store profile")');
    },

    /**
     * Starts this instance's import worker and hands every queued or running job to the queue again
     * (idempotent: covers a Redis that lost its data, or jobs queued while no instance ran).
     */
    async startImports(): Promise<void> {
      if (!importQueue) return;
      importQueue.start((jobId) => importRunner.run(jobId), (jobId, reason) => importRunner.fail(jobId, reason));
      for (const id of await importJobs.activeIds()) await importQueue.enqueue(id.toHexString());
    },

    async stopImports(): Promise<void> {
      await importQueue?.close();
    },

    /** Starts the daily refresh of watched shows (categories whose provider has series). */
    startShowRefresh(): void {
      metadata.showRefresh?.start();
    },

    async stopShowRefresh(): Promise<void> {
      await metadata.showRefresh?.stop();
    },

    stop(): void {
      storeProfile.stop();
    },
  };
}

export type CatalogModule = ReturnType<typeof createCatalogModule>;

/** The category's metadata providers and the use cases built on them (search, import, refresh, the daily refresh). */
function createMetadataProviders({ category, providers, catalog, catalogRepository, episodes, db, logger, images }: { category: CatalogModuleOptions['category']; providers?: ProvidersOptions; catalog: CatalogService; catalogRepository: CatalogRepository; episodes: EpisodesService | null; db: CatalogDatabase; logger: Logger; images: ImageSources }) {
  const cache = providers ? redisAnswerCache(providers.redis, providers.redisKeyPrefix) : memoryAnswerCache();
  const enabled = createProviders(providers?.settings ?? {}, cache, providers?.client);
  const categoryProviders = new CategoryProviders(category, providersOfCategory(category.providers, enabled));
  // Without Redis nothing is enabled (settings {}): the search answers 400 before the allowance is read.
  const quota = providers ? new ProviderSearchQuotaRepository(providers.redis, providers.redisKeyPrefix, category.id, providers.searchLimits) : { take: async () => ({ allowed: true as const }) };
  const search = new ProviderSearchService(categoryProviders, catalogRepository, quota, images);
  const imports = new ProviderImportService({ category, providers: categoryProviders, catalog, entries: catalogRepository, episodes });
  const servesShows = Object.values(category.providers ?? {}).includes('tv') && categoryProviders.ids().length > 0;
  const showRefresh =
    providers && servesShows
      ? new ShowRefreshWorker({
          items: new WatchingItemsReader(db),
          claims: new RefreshClaimsRepository(providers.redis, providers.redisKeyPrefix, category.id),
          refresh: (id) => imports.refresh(id, { userId: null, moderator: true }),
          logger,
          intervalMs: providers.refreshIntervalMs,
        })
      : undefined;
  const rowFill = categoryProviders.ids().length ? new ProviderRowFill(category, categoryProviders, logger) : undefined;
  const match = new ProviderMatchService({ providers: categoryProviders, imports, logger });
  return { categoryProviders, search, imports, showRefresh, rowFill, match };
}
