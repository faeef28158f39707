import { z } from '@mt/contracts';
import { queryInt } from '@mt/validation';
import { searchWords } from '@mt/domain';
import { YEAR_MAX, YEAR_MIN } from '../../domain/catalog-query';

const provider = () => z.string().min(1).max(50).openapi({ description: 'A provider serving this category (the category record lists them: `providers`)', example: 'tmdb' });

/** `GET /{category}/providers/search`: the same parameters in every category. */
export const ProviderSearchQuerySchema = z.strictObject({
  q: z
    .string()
    .min(1)
    .max(200)
    .refine((value) => searchWords(value).length > 0, 'must contain at least one letter or digit')
    .openapi({ description: 'What to search for (1–200 characters); for books an ISBN finds its edition' }),
  year: queryInt(YEAR_MIN, YEAR_MAX).optional().openapi({ type: 'integer', minimum: YEAR_MIN, maximum: YEAR_MAX, description: 'Only works of this year (first release, first air date, first publication)' }),
  provider: provider().optional(),
});

/** One work a provider found; shared by every category (declared once in the OpenAPI document). */
export const ProviderHitSchema = z
  .object({
    provider: z.string().openapi({ example: 'tmdb' }),
    provider_id: z.string().openapi({ description: "The work's id at the provider (TMDB: digits; Open Library: a work `OL…W` or an edition `OL…M`)", example: '603' }),
    title: z.string(),
    year: z.number().int().nullable(),
    overview: z.string().nullable(),
    poster_url: z.string().nullable(),
    poster: z.string().nullable().openapi({ description: "This API's path of the poster (`GET /api/v1/images/<provider>/<path>`), served from its own origin; null when there is none" }),
    external_ids: z.record(z.string(), z.string()).openapi({ description: "At least the provider's own id (`tmdb`, `openlibrary`)" }),
    existing_id: z.string().nullable().openapi({ description: 'The catalog entry that already holds one of these external ids; null when none does' }),
  })
  .openapi('ProviderHit');

export const ProviderSearchSchema = z.object({ data: z.array(ProviderHitSchema) }).openapi('ProviderSearch');

export const ProviderImportSchema = z
  .strictObject({
    provider: provider(),
    provider_id: z.string().min(1).max(50).openapi({ description: 'The id a provider search gave', example: '603' }),
  })
  .openapi('ProviderImport');
