import { calendarDateSchema, idSchema, objectIdParam, pageParam, z } from '@mt/contracts';
import { queryInt } from '@mt/validation';
import { IMDB_ID, TMDB_ID, TVDB_ID } from '@mt/domain';
import { DEFAULT_EPISODES_PAGE, MAX_EPISODE_NUMBER, MAX_EPISODES_PAGE, MAX_EPISODES_PER_SEASON, MAX_SEASON } from '../../domain/episodes';

const EXTERNAL_ID_FORMATS = { imdb: IMDB_ID, tmdb: TMDB_ID, tvdb: TVDB_ID } as const;

/** The episodes' schemas (episodic categories only). */
function buildEpisodeSchemas() {
  const seasonNumber = () => queryInt(0, MAX_SEASON).openapi({ type: 'integer', minimum: 0, maximum: MAX_SEASON, description: 'Season number; 0 holds the specials' });

  const externalIdsShape = Object.fromEntries(
    Object.entries(EXTERNAL_ID_FORMATS).map(([key, format]) => [key, z.string().regex(format.pattern, `must be ${format.format}`).optional().openapi({ description: format.format, example: format.example })]),
  );

  const Episode = z
    .object({
      id: idSchema(),
      season: z.number().int().min(0),
      number: z.number().int().min(1),
      title: z.string().nullable(),
      air_date: calendarDateSchema().nullable().openapi({ description: 'First air date; null when unknown (then never counted as aired)' }),
      runtime_minutes: z.number().int().nullable(),
      external_ids: z.object(externalIdsShape).openapi({ description: 'The episode\'s ids elsewhere (`{}` when none)' }),
    })
    .openapi('Episode');

  const EpisodePage = z
    .object({
      data: z.array(Episode),
      page: z.number().int().min(1),
      limit: z.number().int().min(1).max(MAX_EPISODES_PAGE),
      total: z.number().int().min(0),
      total_pages: z.number().int().min(0),
    })
    .openapi('EpisodePage');

  const EpisodesQuery = z.strictObject({
    season: seasonNumber().optional(),
    page: pageParam(),
    limit: queryInt(1, MAX_EPISODES_PAGE)
      .optional()
      .openapi({ type: 'integer', minimum: 1, maximum: MAX_EPISODES_PAGE, default: DEFAULT_EPISODES_PAGE, description: 'Page size' }),
  });

  const ShowParams = z.strictObject({ id: objectIdParam() });
  const SeasonParams = z.strictObject({ id: objectIdParam(), season: seasonNumber() });

  const EpisodeInput = z.strictObject({
    number: z.number().int().min(1).max(MAX_EPISODE_NUMBER).openapi({ description: `Episode number within the season (1–${MAX_EPISODE_NUMBER}), unique in the request` }),
    title: z.string().trim().min(1).max(300).nullable().optional().openapi({ description: 'Title (1–300 characters)' }),
    air_date: calendarDateSchema().nullable().optional(),
    runtime_minutes: z.number().int().min(1).max(10000).nullable().optional().openapi({ description: 'Running time in minutes (1–10000)' }),
    external_ids: z.strictObject(externalIdsShape).optional(),
  });

  const PutSeason = z
    .strictObject({ episodes: z.array(EpisodeInput).max(MAX_EPISODES_PER_SEASON) })
    .superRefine((body, ctx) => {
      const seen = new Set<number>();
      body.episodes.forEach((episode, index) => {
        if (seen.has(episode.number)) ctx.addIssue({ code: 'custom', path: ['episodes', index, 'number'], message: `number ${episode.number} appears twice` });
        seen.add(episode.number);
      });
    })
    .openapi('PutSeason');

  return { Episode, EpisodePage, EpisodesQuery, ShowParams, SeasonParams, PutSeason, EpisodeList: z.array(Episode).openapi('SeasonEpisodes') };
}

export const episodeSchemas = buildEpisodeSchemas();
