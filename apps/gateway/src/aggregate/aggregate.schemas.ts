import { calendarDateSchema, idSchema, objectIdParam, timestampSchema, z } from '@mt/contracts';
import { LIST_STATUSES } from '@mt/domain';

const count = () => z.number().int().min(0);

/** The most a home or search answer lists of each kind: a glance, not a list (the list endpoints page the rest). */
export const HOME_UP_NEXT_PER_CATEGORY = 10;
export const HOME_PLANNED_PER_CATEGORY = 5;
export const HOME_RECENTLY_FINISHED = 12;
export const SEARCH_DEFAULT_LIMIT = 5;
export const SEARCH_MAX_LIMIT = 20;

const posterUrl = () =>
  z
    .string()
    .nullable()
    .openapi({ description: "The work's poster or cover when the catalog has one (`null` today: clients show a placeholder)" });

export const WorkSummarySchema = z
  .object({
    id: idSchema(),
    title: z.string(),
    year: z.number().int().nullable(),
    description: z.string().nullable().openapi({ description: "The catalog entry's description, when known" }),
    poster_url: posterUrl(),
    poster: z
      .string()
      .nullable()
      .openapi({ description: "This API's path of the picture (`GET /api/v1/images/<provider>/<path>`), as the catalog entry gives it: what a page on this origin shows; null when there is none" }),
    progress_total: z
      .number()
      .int()
      .min(0)
      .nullable()
      .openapi({ description: "The work's length in the category's progress unit (a show's episodes, a book's pages, a film's minutes), when the catalog knows it" }),
  })
  .openapi('WorkSummary', { description: 'The catalog entry a card shows' });

const UnavailableCategorySchema = z
  .object({
    category: z.string(),
    code: z.enum(['service_unavailable', 'gateway_timeout', 'bad_gateway']),
    error: z.string().openapi({ description: 'What went wrong, in words' }),
  })
  .openapi('UnavailableCategory', { description: 'A category whose part of the answer is missing: it is left out, the rest is answered' });

const NextEpisodeSchema = z
  .object({ id: idSchema(), season: count(), number: count(), title: z.string().nullable(), air_date: calendarDateSchema().nullable() })
  .openapi('HomeNextEpisode', { description: 'The episode to watch next' });

export const HomeEntrySchema = z
  .object({
    category: z.string().openapi({ description: 'The category id', example: 'tvshows' }),
    item: WorkSummarySchema,
    status: z.enum(LIST_STATUSES),
    score: z.number().int().min(1).max(10).nullable(),
    progress: count().nullable(),
    started_at: calendarDateSchema().nullable(),
    finished_at: calendarDateSchema().nullable(),
    updated_at: timestampSchema(),
    next_episode: NextEpisodeSchema.nullable().openapi({
      description: "A show's first episode without a play in the current cycle, when it has aired (from `GET /api/v1/tvshows/list/up-next`); null for other works",
    }),
  })
  .openapi('HomeEntry', { description: 'A list entry as the home shows it (the whole entry: `GET /api/v1/{category}/list/{item_id}`)' });

const CategoryGlanceSchema = z
  .object({
    category: z.string(),
    total: count(),
    by_status: z.object(Object.fromEntries(LIST_STATUSES.map((status) => [status, count()])) as Record<(typeof LIST_STATUSES)[number], ReturnType<typeof count>>),
    finished_this_month: count().openapi({ description: 'Completed entries whose `finished_at` falls in this month (UTC)' }),
  })
  .openapi('CategoryGlance');

export const HomeSchema = z
  .object({
    up_next: z.array(HomeEntrySchema).openapi({
      description: `Entries in status \`watching\` of every category (shows and films being watched, books being read), last changed first; at most ${HOME_UP_NEXT_PER_CATEGORY} per category`,
    }),
    planned: z.array(HomeEntrySchema).openapi({
      description: `Entries in status \`plan_to_watch\` of every category (what to start next), last changed first; at most ${HOME_PLANNED_PER_CATEGORY} per category`,
    }),
    recently_finished: z.array(HomeEntrySchema).openapi({
      description: `Completed entries of every category, latest \`finished_at\` first (then last changed); at most ${HOME_RECENTLY_FINISHED}`,
    }),
    month: z
      .object({
        month: z.string().regex(/^\d{4}-\d{2}$/).openapi({ example: '2026-12' }),
        finished: count().openapi({ description: 'Entries finished this month, every category' }),
        by_category: z.array(CategoryGlanceSchema).openapi({ description: 'Per category, sorted by id' }),
      })
      .openapi({ description: "This month's glance (UTC)" }),
    unavailable: z.array(UnavailableCategorySchema).openapi({ description: 'Categories left out of this answer (a failing or slow catalog); empty when every category answered' }),
  })
  .openapi('Home', { description: "The caller's home across every live category, in one answer" });

export const SearchQuerySchema = z.strictObject({
  q: z.string().trim().min(1).max(200).openapi({ description: 'Words of the title (1–200 characters), matched as each category matches them' }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(SEARCH_MAX_LIMIT)
    .default(SEARCH_DEFAULT_LIMIT)
    .openapi({ description: `Results per category (1–${SEARCH_MAX_LIMIT}, default ${SEARCH_DEFAULT_LIMIT})` }),
});

// Unnamed on purpose: a named schema made nullable inside a record loses its `nullable` in OpenAPI 3.0 (a $ref takes no siblings).
const listMark = () =>
  z
    .object({ status: z.enum(LIST_STATUSES), progress: count().nullable(), score: z.number().int().nullable() })
    .openapi({ description: "Where a work stands on the caller's list" });

export const LIST_MARKS_MAX_IDS = 20;

export const ListMarksParams = z.strictObject({
  category: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/).openapi({ description: 'A live category id', example: 'movies' }),
});

export const ListMarksQuery = z.strictObject({
  ids: z
    .string()
    .regex(/^[0-9a-f]{24}(,[0-9a-f]{24})*$/, 'expected comma-separated entry ids (24 hexadecimal characters each)')
    .refine((text) => text.split(',').length <= LIST_MARKS_MAX_IDS, `at most ${LIST_MARKS_MAX_IDS} ids`)
    .openapi({ description: `1–${LIST_MARKS_MAX_IDS} catalog entry ids, comma-separated (a page of search results)` }),
});

export const ListMarksSchema = z
  .record(z.string(), listMark().nullable())
  .openapi('ListMarks', { description: "Each id asked for → the caller's list entry in brief, or `null` when it is not on the list" });

const SearchHitSchema = WorkSummarySchema.omit({ progress_total: true })
  .extend({
    on_list: listMark()
      .nullable()
      .openapi({ description: "The caller's list entry for this work; `null` when it is not on the list or the request is anonymous (or lacks `list:read`)" }),
  })
  .openapi('SearchHit');

export const SearchResultsSchema = z
  .object({
    q: z.string(),
    groups: z
      .array(
        z.object({
          category: z.string(),
          display_name: z.string(),
          total: count().openapi({ description: 'Matches in the category (the category search pages them all)' }),
          results: z.array(SearchHitSchema),
        }),
      )
      .openapi({ description: 'One group per live category that answered, sorted by id (groups with no match included)' }),
    unavailable: z.array(UnavailableCategorySchema),
  })
  .openapi('SearchResults', { description: 'A search of every category at once' });

const openObject = (description: string) => z.looseObject({}).openapi({ additionalProperties: true, description });

export const EntryPageParams = z.strictObject({
  category: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/).openapi({ description: 'A live category id', example: 'movies' }),
  id: objectIdParam(),
});

export const EntryPageSchema = z
  .object({
    item: openObject("The catalog entry, as `GET /api/v1/{category}/{id}` answers it (a merged id's survivor)"),
    list_entry: openObject("The caller's list entry, as `GET /api/v1/{category}/list/{item_id}` answers it")
      .nullable()
      .openapi({ description: "The caller's list entry; `null` when the work is not on the list, or the request is anonymous (or lacks `list:read`)" }),
  })
  .openapi('EntryPage', { description: "A catalog entry with the caller's list entry for it" });

export type EntryPage = z.output<typeof EntryPageSchema>;
export type Home = z.output<typeof HomeSchema>;
export type HomeEntry = z.output<typeof HomeEntrySchema>;
export type WorkSummary = z.output<typeof WorkSummarySchema>;
export type SearchResults = z.output<typeof SearchResultsSchema>;
