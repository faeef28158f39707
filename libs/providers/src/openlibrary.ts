import { ENTRY_LIMITS, normaliseIsbn, OPENLIBRARY_ID, type ProviderMedia } from '@mt/domain';
import { z } from 'zod';
import type { AnswerCache } from './answer-cache';
import type { MetadataProvider, ProviderSearchHit, ProviderSeason, ProviderWork, ReadOptions } from './provider';
import { ProviderHttp, ProviderNotFoundError, type ProviderHttpOptions } from './provider-http';
import type { OpenLibrarySettings } from './provider-settings';
import { countOrNull, namesWithin, textOrNull, yearOf } from './provider-values';

const SEARCH_RESULTS = 20;
const EDITIONS_READ = 50;
const AUTHORS_READ = 5;
/** Open Library's subjects run long and loose; the first few are the work's genres. */
const GENRES_KEPT = 5;

const WORK_ID = /^OL\d{1,12}W$/;
const EDITION_ID = /^OL\d{1,12}M$/;
const OLID = OPENLIBRARY_ID.pattern;
const keyOf = (prefix: string) => z.string().regex(new RegExp(`^/${prefix}/OL\\d{1,12}[A-Z]$`));

const searchAnswer = z.object({
  docs: z.array(
    z.object({
      key: keyOf('works'),
      title: z.string(),
      first_publish_year: z.number().int().nullish(),
      cover_i: z.number().int().nullish(),
      cover_edition_key: z.string().nullish(),
    }),
  ),
});
const text = z.union([z.string(), z.object({ value: z.string() }).transform((value) => value.value)]);
const workAnswer = z.object({
  key: keyOf('works'),
  title: z.string().min(1),
  description: text.nullish(),
  subjects: z.array(z.string()).default([]),
  covers: z.array(z.number().int()).default([]),
  first_publish_date: z.string().nullish(),
  authors: z.array(z.object({ author: z.object({ key: keyOf('authors') }) })).default([]),
});
const editionAnswer = z.object({
  key: keyOf('books'),
  title: z.string().optional(),
  works: z.array(z.object({ key: keyOf('works') })).default([]),
  isbn_13: z.array(z.string()).default([]),
  isbn_10: z.array(z.string()).default([]),
  number_of_pages: z.number().int().nullish(),
  publish_date: z.string().nullish(),
  covers: z.array(z.number().int()).default([]),
});
type Edition = z.output<typeof editionAnswer>;
const editionsAnswer = z.object({ entries: z.array(editionAnswer) });
const authorAnswer = z.object({ name: z.string() });

const lastSegment = (key: string): string => key.slice(key.lastIndexOf('/') + 1);
const isbnOf = (edition: Edition): string | null =>
  [...edition.isbn_13, ...edition.isbn_10].map((isbn) => normaliseIsbn(isbn)).find((isbn) => isbn !== undefined) ?? null;

/**
 * Open Library (openlibrary.org/developers/api): search.json, works, a work's editions, editions by ISBN, authors,
 * and the covers host. No key.
 */
export class OpenLibraryProvider implements MetadataProvider {
  readonly id = 'openlibrary' as const;
  readonly imageBaseUrl: string;
  private readonly http: ProviderHttp;

  constructor(
    private readonly settings: OpenLibrarySettings,
    cache: AnswerCache,
    options: Pick<ProviderHttpOptions, 'timeoutMs' | 'retryBackoffMs' | 'fetch'> = {},
  ) {
    this.imageBaseUrl = settings.coversUrl;
    this.http = new ProviderHttp({ provider: 'openlibrary', cache, ...options });
  }

  validId(media: ProviderMedia, providerId: string): boolean {
    return media === 'book' && OLID.test(providerId);
  }

  async search(_media: ProviderMedia, query: { q: string; year?: number }, options: ReadOptions = {}): Promise<ProviderSearchHit[]> {
    const isbn = normaliseIsbn(query.q.trim());
    if (isbn !== undefined) return this.searchIsbn(isbn, options);
    const params = new URLSearchParams({
      q: query.year === undefined ? query.q : `${query.q} first_publish_year:${query.year}`,
      fields: 'key,title,first_publish_year,cover_i,cover_edition_key',
      limit: String(SEARCH_RESULTS),
    });
    const answer = await this.http.getJson(`${this.settings.apiUrl}/search.json?${params}`, searchAnswer, options);
    return answer.docs.flatMap((doc) => {
      const title = textOrNull(doc.title, ENTRY_LIMITS.titleMaxLength);
      const workId = lastSegment(doc.key);
      if (!title || !WORK_ID.test(workId)) return [];
      return [{ provider: 'openlibrary' as const, provider_id: workId, title, year: yearOf(String(doc.first_publish_year ?? '')), overview: null, poster_url: this.cover(doc.cover_i), external_ids: { openlibrary: workId } }];
    });
  }

  async fetchWork(_media: ProviderMedia, providerId: string, options: ReadOptions = {}): Promise<ProviderWork> {
    const named = EDITION_ID.test(providerId) ? await this.edition(providerId, options) : null;
    const workKey = named ? named.works[0]?.key : `/works/${providerId}`;
    if (!workKey) throw new ProviderNotFoundError('this Open Library edition belongs to no work');
    const work = await this.http.getJson(`${this.settings.apiUrl}${workKey}.json`, workAnswer, options);
    const workId = lastSegment(work.key);
    const edition = named ?? (await this.firstEditionWithIsbn(workId, options));
    const authors = await this.authorNames(work.authors.map((entry) => entry.author.key), options);
    return {
      provider: 'openlibrary',
      provider_id: providerId,
      title: textOrNull(work.title, ENTRY_LIMITS.titleMaxLength) ?? workId,
      year: yearOf(work.first_publish_date) ?? yearOf(edition?.publish_date),
      description: textOrNull(work.description),
      genres: namesWithin(work.subjects, GENRES_KEPT, 50),
      poster_url: this.cover(work.covers.find((id) => id > 0) ?? edition?.covers.find((id) => id > 0)),
      external_ids: { openlibrary: workId },
      fields: {
        authors: namesWithin(authors, 20, 200),
        isbn: edition ? isbnOf(edition) : null,
        pages: countOrNull(edition?.number_of_pages, 100000),
      },
    };
  }

  async seasons(): Promise<ProviderSeason[]> {
    return [];
  }

  /** An ISBN typed as the query: the edition it names, found directly. */
  private async searchIsbn(isbn: string, options: ReadOptions): Promise<ProviderSearchHit[]> {
    let edition: Edition;
    try {
      edition = await this.http.getJson(`${this.settings.apiUrl}/isbn/${isbn}.json`, editionAnswer, options);
    } catch (error) {
      if (error instanceof ProviderNotFoundError) return [];
      throw error;
    }
    const workKey = edition.works[0]?.key;
    const editionId = lastSegment(edition.key);
    if (!workKey || !EDITION_ID.test(editionId)) return [];
    const title = textOrNull(edition.title, ENTRY_LIMITS.titleMaxLength) ?? editionId;
    return [{ provider: 'openlibrary', provider_id: editionId, title, year: yearOf(edition.publish_date), overview: null, poster_url: this.cover(edition.covers.find((id) => id > 0)), external_ids: { openlibrary: lastSegment(workKey) } }];
  }

  private async edition(editionId: string, options: ReadOptions): Promise<Edition> {
    return this.http.getJson(`${this.settings.apiUrl}/books/${editionId}.json`, editionAnswer, options);
  }

  private async firstEditionWithIsbn(workId: string, options: ReadOptions): Promise<Edition | null> {
    const editions = await this.http.getJson(`${this.settings.apiUrl}/works/${workId}/editions.json?limit=${EDITIONS_READ}`, editionsAnswer, options);
    return editions.entries.find((edition) => isbnOf(edition) !== null) ?? editions.entries[0] ?? null;
  }

  private async authorNames(keys: readonly string[], options: ReadOptions): Promise<string[]> {
    const names: string[] = [];
    for (const key of keys.slice(0, AUTHORS_READ)) {
      try {
        names.push((await this.http.getJson(`${this.settings.apiUrl}${key}.json`, authorAnswer, options)).name);
      } catch (error) {
        // An author record that is gone leaves the name out, not the book.
        if (!(error instanceof ProviderNotFoundError)) throw error;
      }
    }
    return names;
  }

  private cover(coverId: number | null | undefined): string | null {
    return typeof coverId === 'number' && coverId > 0 ? `${this.imageBaseUrl}/b/id/${coverId}-L.jpg` : null;
  }
}
