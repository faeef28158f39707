import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { OPENLIBRARY_AUTHORS, OPENLIBRARY_EDITIONS, OPENLIBRARY_WORKS } from './openlibrary-fixtures';
import { TMDB_MOVIES, TMDB_SEASONS, TMDB_SHOWS } from './tmdb-fixtures';

/** What a request can be made to meet instead of its recorded answer. */
export type ReplayFault = 'timeout' | 'rate_limited' | 'server_error' | 'malformed' | 'wrong_shape';

export interface ReplayRequest {
  /** Path and query as received (`/tmdb/3/search/movie?query=alien&api_key=…`). */
  url: string;
  path: string;
  /** How a TMDB request authenticated: the v4 read token, the v3 key, or neither. */
  auth: 'bearer' | 'api_key' | 'none';
}

export interface ProviderReplayOptions {
  /** TMDB's v3 key the replay accepts (`api_key=`); default `replay-key`. */
  tmdbApiKey?: string;
  /** TMDB's v4 read token it accepts (`Authorization: Bearer`); default `replay-token`. */
  tmdbReadToken?: string;
  port?: number;
}

/** A tiny valid JPEG: what every poster and cover path answers. */
const IMAGE = Buffer.from('/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=', 'base64');

const fold = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
/** Every query word starts a title word, as the providers' own searches roughly behave. */
const matches = (title: string, query: string) => {
  const words = fold(title);
  return fold(query).every((q) => words.some((word) => word.startsWith(q)));
};

/**
 * A local server answering like TMDB (API v3 and its image host) and Open Library (API and covers host) for a
 * handful of recorded works, so no test needs the internet. Faults can be queued; every request is logged.
 */
export class ProviderReplay {
  /** The recorded works, copied per server: tests may change them (a new episode) to see a refresh pick it up. */
  readonly fixtures = structuredClone({ movies: TMDB_MOVIES, shows: TMDB_SHOWS, seasons: TMDB_SEASONS, works: OPENLIBRARY_WORKS, editions: OPENLIBRARY_EDITIONS, authors: OPENLIBRARY_AUTHORS });
  readonly requests: ReplayRequest[] = [];
  private readonly faults: Array<{ fault: ReplayFault; path: string; left: number }> = [];
  private readonly sockets = new Set<Socket>();
  private readonly server = createServer((req, res) => this.answer(req, res));
  private baseUrl = '';

  constructor(private readonly options: ProviderReplayOptions = {}) {
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async start(): Promise<this> {
    this.server.listen(this.options.port ?? 0, '127.0.0.1');
    await once(this.server, 'listening');
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** The variables pointing a service at this server (TMDB enabled with the v3 key). */
  get env(): Record<string, string> {
    return {
      TMDB_API_KEY: this.options.tmdbApiKey ?? 'replay-key',
      TMDB_API_URL: `${this.baseUrl}/tmdb/3`,
      TMDB_IMAGE_URL: `${this.baseUrl}/tmdb-images/t/p`,
      OPENLIBRARY_URL: `${this.baseUrl}/openlibrary`,
      OPENLIBRARY_COVERS_URL: `${this.baseUrl}/covers`,
    };
  }

  get url(): string {
    return this.baseUrl;
  }

  /** A film only the calling test knows, added to the recorded ones: TMDB id `id`, IMDb id `tt0<id>`. */
  recordMovie(id: number, title: string, releaseDate: string): void {
    const base = structuredClone(this.fixtures.movies[1]!);
    this.fixtures.movies.push({ ...base, id, title, original_title: title, release_date: releaseDate, imdb_id: `tt0${id}`, external_ids: { imdb_id: `tt0${id}` } } as typeof base);
  }

  /** Requests whose path contains `pathPart` (all when omitted). */
  calls(pathPart = ''): number {
    return this.requests.filter((request) => request.path.includes(pathPart)).length;
  }

  /** The next `times` requests whose path contains `pathPart` meet `fault`. */
  fail(fault: ReplayFault, { times = 1, path = '' }: { times?: number; path?: string } = {}): void {
    this.faults.push({ fault, path, left: times });
  }

  reset(): void {
    this.requests.length = 0;
    this.faults.length = 0;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.server.close();
    await once(this.server, 'close').catch(() => undefined);
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://replay');
    const request: ReplayRequest = { url: req.url ?? '/', path: url.pathname, auth: this.tmdbAuth(req, url) };
    this.requests.push(request);
    const fault = this.takeFault(url.pathname);
    if (fault === 'timeout') return; // held until the client gives up or the server closes
    if (fault === 'rate_limited') return json(res, 429, { status_code: 25, status_message: 'Your request count is over the allowed limit.' }, { 'retry-after': '2' });
    if (fault === 'server_error') return json(res, 500, { status_code: 11, status_message: 'Internal error: Something went wrong, contact TMDb.' });
    if (fault === 'malformed') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"results": [');
    if (fault === 'wrong_shape') return json(res, 200, { results: 'nothing here', docs: 7, title: 42 });
    if (url.pathname.startsWith('/tmdb-images/') || url.pathname.startsWith('/covers/')) {
      return void res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': IMAGE.length, 'cache-control': 'max-age=31536000' }).end(IMAGE);
    }
    if (url.pathname.startsWith('/tmdb/3/')) return this.tmdb(url, request, res);
    if (url.pathname.startsWith('/openlibrary/')) return this.openLibrary(url, res);
    json(res, 404, { error: 'not found' });
  }

  private takeFault(path: string): ReplayFault | null {
    const index = this.faults.findIndex((fault) => fault.left > 0 && path.includes(fault.path));
    const found = this.faults[index];
    if (!found) return null;
    found.left--;
    if (found.left === 0) this.faults.splice(index, 1);
    return found.fault;
  }

  private tmdbAuth(req: IncomingMessage, url: URL): ReplayRequest['auth'] {
    if (req.headers.authorization === `Bearer ${this.options.tmdbReadToken ?? 'replay-token'}`) return 'bearer';
    if (url.searchParams.get('api_key') === (this.options.tmdbApiKey ?? 'replay-key')) return 'api_key';
    return 'none';
  }

  /** https://developer.themoviedb.org/reference: search, details (append_to_response) and season details. */
  private tmdb(url: URL, request: ReplayRequest, res: ServerResponse): void {
    if (request.auth === 'none') return json(res, 401, { status_code: 7, status_message: 'Invalid API key: You must be granted a valid key.', success: false });
    const path = url.pathname.slice('/tmdb/3'.length);
    const appended = (url.searchParams.get('append_to_response') ?? '').split(',');
    const query = url.searchParams.get('query') ?? '';
    let match: RegExpExecArray | null;
    if (path === '/search/movie') {
      const year = url.searchParams.get('year');
      const results = this.fixtures.movies.filter((movie) => matches(movie.title, query) && (!year || movie.release_date.startsWith(year)));
      return json(res, 200, page(results.map(({ id, title, original_title, release_date, overview, poster_path, genres }) => ({ adult: false, id, title, original_title, release_date, overview, poster_path, genre_ids: genres.map((g) => g.id) }))));
    }
    if (path === '/search/tv') {
      const year = url.searchParams.get('first_air_date_year');
      const results = this.fixtures.shows.filter((show) => matches(show.name, query) && (!year || show.first_air_date.startsWith(year)));
      return json(res, 200, page(results.map(({ id, name, original_name, first_air_date, overview, poster_path, genres }) => ({ id, name, original_name, first_air_date, overview, poster_path, genre_ids: genres.map((g) => g.id) }))));
    }
    if ((match = /^\/find\/(tt\d+)$/.exec(path)) && url.searchParams.get('external_source') === 'imdb_id') {
      // https://developer.themoviedb.org/reference/find-by-id: results by media type, each as in a search.
      const imdb = match[1];
      const movies = this.fixtures.movies.filter((movie) => movie.external_ids.imdb_id === imdb).map(({ id, title, release_date, poster_path }) => ({ id, title, release_date, poster_path, media_type: 'movie' }));
      const shows = this.fixtures.shows.filter((show) => show.external_ids.imdb_id === imdb).map(({ id, name, first_air_date, poster_path }) => ({ id, name, first_air_date, poster_path, media_type: 'tv' }));
      return json(res, 200, { movie_results: movies, person_results: [], tv_results: shows, tv_episode_results: [], tv_season_results: [] });
    }
    if ((match = /^\/movie\/(\d+)$/.exec(path))) {
      const movie = this.fixtures.movies.find((candidate) => String(candidate.id) === match![1]);
      if (!movie) return notFound(res);
      const { external_ids, credits, ...details } = movie;
      return json(res, 200, { ...details, ...(appended.includes('external_ids') ? { external_ids } : {}), ...(appended.includes('credits') ? { credits } : {}) });
    }
    if ((match = /^\/tv\/(\d+)$/.exec(path))) {
      const show = this.fixtures.shows.find((candidate) => String(candidate.id) === match![1]);
      if (!show) return notFound(res);
      const { external_ids, ...details } = show;
      return json(res, 200, { ...details, ...(appended.includes('external_ids') ? { external_ids } : {}) });
    }
    if ((match = /^\/tv\/(\d+)\/season\/(\d+)$/.exec(path))) {
      const season = this.fixtures.seasons[`${match[1]}/${match[2]}`];
      return season ? json(res, 200, season) : notFound(res);
    }
    notFound(res);
  }

  /** https://openlibrary.org/developers/api: search.json, works, a work's editions, editions by id and ISBN, authors. */
  private openLibrary(url: URL, res: ServerResponse): void {
    const path = url.pathname.slice('/openlibrary'.length);
    let match: RegExpExecArray | null;
    if (path === '/search.json') {
      const raw = url.searchParams.get('q') ?? '';
      const year = /first_publish_year:(\d{4})/.exec(raw)?.[1];
      const q = raw.replace(/first_publish_year:\d{4}/, '');
      const docs = this.fixtures.works
        .filter((work) => matches(work.title, q) && (!year || work.first_publish_date === year))
        .map((work) => ({ key: work.key, title: work.title, first_publish_year: Number(work.first_publish_date), cover_i: work.covers[0], cover_edition_key: 'OL7353617M', author_name: ['Frank Herbert'] }));
      return json(res, 200, { numFound: docs.length, start: 0, numFoundExact: true, docs, q: raw, offset: null });
    }
    if ((match = /^\/works\/(OL\d+W)\.json$/.exec(path))) {
      const work = this.fixtures.works.find((candidate) => candidate.key === `/works/${match![1]}`);
      return work ? json(res, 200, work) : notFound(res);
    }
    if ((match = /^\/works\/(OL\d+W)\/editions\.json$/.exec(path))) {
      const entries = this.fixtures.editions.filter((edition) => edition.works.some((work) => work.key === `/works/${match![1]}`));
      return json(res, 200, { links: { self: path, work: `/works/${match[1]}` }, size: entries.length, entries });
    }
    if ((match = /^\/books\/(OL\d+M)\.json$/.exec(path))) {
      const edition = this.fixtures.editions.find((candidate) => candidate.key === `/books/${match![1]}`);
      return edition ? json(res, 200, edition) : notFound(res);
    }
    if ((match = /^\/isbn\/(\d{9}[\dX]|\d{13})\.json$/.exec(path))) {
      const isbn = match[1]!;
      const edition = this.fixtures.editions.find((candidate) => [...(candidate.isbn_10 ?? []), ...(candidate.isbn_13 ?? [])].includes(isbn));
      return edition ? json(res, 200, edition) : notFound(res);
    }
    if ((match = /^\/authors\/(OL\d+A)\.json$/.exec(path))) {
      const author = this.fixtures.authors.find((candidate) => candidate.key === `/authors/${match![1]}`);
      return author ? json(res, 200, author) : notFound(res);
    }
    notFound(res);
  }
}

const page = (results: unknown[]) => ({ page: 1, results, total_pages: 1, total_results: results.length });

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json;charset=utf-8', ...headers }).end(JSON.stringify(body));
}

const notFound = (res: ServerResponse) => json(res, 404, { status_code: 34, status_message: 'The resource you requested could not be found.', success: false });

/** Starts a replay server on a free port (or `options.port`). */
export const startProviderReplay = (options: ProviderReplayOptions = {}): Promise<ProviderReplay> => new ProviderReplay(options).start();
