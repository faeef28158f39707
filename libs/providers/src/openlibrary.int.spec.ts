import { startProviderReplay, type ProviderReplay } from '@mt/testing';
import { memoryAnswerCache } from './answer-cache';
import { OpenLibraryProvider } from './openlibrary';
import { ProviderNotFoundError } from './provider-http';
import { providerSettings } from './provider-settings';

let replay: ProviderReplay;
beforeAll(async () => {
  replay = await startProviderReplay();
});
afterAll(() => replay.close());
beforeEach(() => replay.reset());

const openLibrary = () => new OpenLibraryProvider(providerSettings(replay.env).openlibrary!, memoryAnswerCache(), { timeoutMs: 2000, retryBackoffMs: 10 });

describe('Open Library adapter against the replay server', () => {
  it('searches works with search.json', async () => {
    expect(await openLibrary().search('book', { q: 'dune', year: 1965 })).toEqual([
      { provider: 'openlibrary', provider_id: 'OL893415W', title: 'Dune', year: 1965, overview: null, poster_url: `${replay.env['OPENLIBRARY_COVERS_URL']}/b/id/11481354-L.jpg`, external_ids: { openlibrary: 'OL893415W' } },
    ]);
    expect(replay.requests[0]!.path).toBe('/openlibrary/search.json');
  });

  it('finds the edition an ISBN names through the editions-by-ISBN API', async () => {
    const hits = await openLibrary().search('book', { q: '978-0-441-17271-9' });
    expect(hits).toEqual([expect.objectContaining({ provider_id: 'OL7353617M', year: 1990, external_ids: { openlibrary: 'OL893415W' } })]);
    expect(replay.requests[0]!.path).toBe('/openlibrary/isbn/9780441172719.json');
    expect(await openLibrary().search('book', { q: '9780000000002' })).toEqual([]);
  });

  it("fetches a work with its authors and its first edition that has an ISBN", async () => {
    const work = await openLibrary().fetchWork('book', 'OL893415W');
    expect(work).toEqual({
      provider: 'openlibrary',
      provider_id: 'OL893415W',
      title: 'Dune',
      year: 1965,
      description: expect.stringContaining('Arrakis'),
      genres: ['Science fiction', 'Dune (Imaginary place)', 'Fiction', 'Life on other planets', 'Ecology'],
      poster_url: `${replay.env['OPENLIBRARY_COVERS_URL']}/b/id/11481354-L.jpg`,
      external_ids: { openlibrary: 'OL893415W' },
      fields: { authors: ['Frank Herbert'], isbn: '9780441172719', pages: 535 },
    });
    expect(replay.requests.map((request) => request.path)).toEqual([
      '/openlibrary/works/OL893415W.json',
      '/openlibrary/works/OL893415W/editions.json',
      '/openlibrary/authors/OL79034A.json',
    ]);
  });

  it('fetches the edition a search named, with its work', async () => {
    const work = await openLibrary().fetchWork('book', 'OL32441541M');
    expect(work).toMatchObject({ title: 'Dune', external_ids: { openlibrary: 'OL893415W' }, fields: { isbn: '9780340960196', pages: 604 } });
    expect(replay.requests[0]!.path).toBe('/openlibrary/books/OL32441541M.json');
  });

  it('says an unknown work is not found, and a failing one is 502 provider_unavailable', async () => {
    await expect(openLibrary().fetchWork('book', 'OL1W')).rejects.toBeInstanceOf(ProviderNotFoundError);
    replay.fail('server_error', { path: '/works/' });
    await expect(openLibrary().fetchWork('book', 'OL893415W')).rejects.toMatchObject({ status: 502, code: 'provider_unavailable' });
  });

  it('serves covers from the covers host', async () => {
    const response = await fetch(`${replay.env['OPENLIBRARY_COVERS_URL']}/b/id/8231856-L.jpg`);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
  });
});
