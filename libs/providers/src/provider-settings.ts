import { z } from 'zod';
import type { ProviderId } from './provider';

export const PROVIDER_DEFAULT_URLS = {
  TMDB_API_URL: 'https://api.themoviedb.org/3',
  TMDB_IMAGE_URL: 'https://image.tmdb.org/t/p',
  OPENLIBRARY_URL: 'https://openlibrary.org',
  OPENLIBRARY_COVERS_URL: 'https://covers.openlibrary.org',
} as const;

/** A blank variable is an unset one (compose files often pass `VAR=`). */
const blankIsUnset = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const baseUrl = (fallback: string) =>
  z.preprocess(
    blankIsUnset,
    z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .default(fallback)
      // Paths are appended after a slash, so a trailing one would double up.
      .transform((url) => url.replace(/\/+$/, '')),
  );

const secret = z.preprocess(blankIsUnset, z.string().trim().optional());

/** The variables that enable and point the providers (docs/operations.md "Metadata providers"). */
export const providersEnvShape = {
  TMDB_API_KEY: secret,
  TMDB_READ_TOKEN: secret,
  TMDB_API_URL: baseUrl(PROVIDER_DEFAULT_URLS.TMDB_API_URL),
  TMDB_IMAGE_URL: baseUrl(PROVIDER_DEFAULT_URLS.TMDB_IMAGE_URL),
  OPENLIBRARY_ENABLED: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().toLowerCase() || undefined : value),
    z.enum(['true', 'false'], { error: 'must be true or false' }).default('true'),
  ),
  OPENLIBRARY_URL: baseUrl(PROVIDER_DEFAULT_URLS.OPENLIBRARY_URL),
  OPENLIBRARY_COVERS_URL: baseUrl(PROVIDER_DEFAULT_URLS.OPENLIBRARY_COVERS_URL),
};

const providersEnvSchema = z.object(providersEnvShape);
export type ProvidersEnv = z.output<typeof providersEnvSchema>;

export interface TmdbSettings {
  apiUrl: string;
  imageUrl: string;
  /** The v4 read token, sent as a Bearer header; wins over the key when both are set. */
  credential: { kind: 'bearer'; token: string } | { kind: 'api_key'; key: string };
}

export interface OpenLibrarySettings {
  apiUrl: string;
  coversUrl: string;
}

/** The enabled providers with their settings: TMDB when it has a credential, Open Library unless turned off. */
export interface ProviderSettings {
  tmdb?: TmdbSettings;
  openlibrary?: OpenLibrarySettings;
}

/** Reads the settings from variables already validated (a service's config), or from a raw environment. */
export function providerSettings(env: ProvidersEnv | NodeJS.ProcessEnv): ProviderSettings {
  const parsed = providersEnvSchema.safeParse(env);
  // A raw environment with a bad value enables nothing rather than guess; services validate at start-up.
  if (!parsed.success) return {};
  const vars = parsed.data;
  const settings: ProviderSettings = {};
  const credential = vars.TMDB_READ_TOKEN
    ? ({ kind: 'bearer', token: vars.TMDB_READ_TOKEN } as const)
    : vars.TMDB_API_KEY
      ? ({ kind: 'api_key', key: vars.TMDB_API_KEY } as const)
      : null;
  if (credential) settings.tmdb = { apiUrl: vars.TMDB_API_URL, imageUrl: vars.TMDB_IMAGE_URL, credential };
  if (vars.OPENLIBRARY_ENABLED === 'true') settings.openlibrary = { apiUrl: vars.OPENLIBRARY_URL, coversUrl: vars.OPENLIBRARY_COVERS_URL };
  return settings;
}

export const enabledProviderIds = (settings: ProviderSettings): ProviderId[] =>
  (Object.keys(settings) as ProviderId[]).filter((id) => settings[id] !== undefined);
