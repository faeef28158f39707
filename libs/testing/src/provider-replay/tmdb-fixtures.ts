/**
 * Recorded-style answers of TMDB's API v3, shaped as its reference documents them
 * (https://developer.themoviedb.org/reference/intro/getting-started). Values are those of the real works,
 * trimmed to the fields the adapters read plus a few they ignore; the show's seasons are shortened to a few
 * episodes each, and its third season is an announced one, not aired yet.
 */

/** Movie details, https://developer.themoviedb.org/reference/movie-details (with append_to_response=external_ids,credits). */
export const TMDB_MOVIES = [
  {
    adult: false,
    id: 348,
    imdb_id: 'tt0078748',
    title: 'Alien',
    original_title: 'Alien',
    release_date: '1979-05-25',
    overview: 'During its return to the earth, commercial spaceship Nostromo intercepts a distress signal from a distant planet.',
    runtime: 117,
    poster_path: '/vfrQk5IPloGg1v9Rzbh2Eg3VGyM.jpg',
    genres: [
      { id: 27, name: 'Horror' },
      { id: 878, name: 'Science Fiction' },
    ],
    external_ids: { imdb_id: 'tt0078748', wikidata_id: 'Q103569', facebook_id: null, instagram_id: null, twitter_id: null },
    credits: {
      cast: [{ id: 10205, name: 'Sigourney Weaver', character: 'Ripley' }],
      crew: [
        { id: 578, name: 'Ridley Scott', job: 'Director', department: 'Directing' },
        { id: 5045, name: "Dan O'Bannon", job: 'Screenplay', department: 'Writing' },
      ],
    },
  },
  {
    adult: false,
    id: 679,
    imdb_id: 'tt0090605',
    title: 'Aliens',
    original_title: 'Aliens',
    release_date: '1986-07-18',
    overview: 'Ripley, the sole survivor of the Nostromo, is rescued after 57 years in hypersleep.',
    runtime: 137,
    poster_path: '/r1x5JGpyqZU8PYhbs4UcrO1Xb6x.jpg',
    genres: [
      { id: 28, name: 'Action' },
      { id: 878, name: 'Science Fiction' },
    ],
    external_ids: { imdb_id: 'tt0090605' },
    credits: { cast: [], crew: [{ id: 2710, name: 'James Cameron', job: 'Director', department: 'Directing' }] },
  },
  {
    adult: false,
    id: 8077,
    imdb_id: 'tt0103644',
    title: 'Alien³',
    original_title: 'Alien³',
    release_date: '1992-05-22',
    overview: 'After escaping with Newt and Hicks from the alien planet, Ripley crash lands on Fiorina 161.',
    runtime: 114,
    poster_path: '/xh5wI0UoW7DfS1IyLy3d2CgrCEP.jpg',
    genres: [{ id: 878, name: 'Science Fiction' }],
    external_ids: { imdb_id: 'tt0103644' },
    credits: { cast: [], crew: [{ id: 7467, name: 'David Fincher', job: 'Director', department: 'Directing' }] },
  },
];

/** TV series details, https://developer.themoviedb.org/reference/tv-series-details (with append_to_response=external_ids). */
export const TMDB_SHOWS = [
  {
    id: 95396,
    name: 'Severance',
    original_name: 'Severance',
    first_air_date: '2022-02-17',
    overview: 'Mark leads a team of office workers whose memories have been surgically divided between their work and personal lives.',
    poster_path: '/pPHpeI2X1qEd1CS1SeyrdhZ4qnT.jpg',
    genres: [
      { id: 18, name: 'Drama' },
      { id: 9648, name: 'Mystery' },
    ],
    networks: [{ id: 2552, name: 'Apple TV+', logo_path: '/4KAy34EHvRM25Ih8wb82AuGU7zJ.png', origin_country: '' }],
    number_of_seasons: 3,
    number_of_episodes: 7,
    seasons: [
      { id: 300001, season_number: 0, name: 'Specials', episode_count: 1, air_date: '2022-04-08' },
      { id: 146237, season_number: 1, name: 'Season 1', episode_count: 3, air_date: '2022-02-17' },
      { id: 393452, season_number: 2, name: 'Season 2', episode_count: 3, air_date: '2025-01-16' },
      { id: 455001, season_number: 3, name: 'Season 3', episode_count: 1, air_date: '2099-01-15' },
    ],
    external_ids: { imdb_id: 'tt11280740', tvdb_id: 371980, freebase_mid: null, tvrage_id: null },
  },
];

/** TV season details, https://developer.themoviedb.org/reference/tv-season-details, keyed `<series id>/<season number>`. */
export const TMDB_SEASONS: Record<string, { _id: string; id: number; season_number: number; name: string; air_date: string | null; episodes: Array<Record<string, unknown>> }> = {
  '95396/0': {
    _id: '5f1a0001',
    id: 300001,
    season_number: 0,
    name: 'Specials',
    air_date: '2022-04-08',
    episodes: [{ id: 3800001, episode_number: 1, season_number: 0, name: 'Inside Lumon', air_date: '2022-04-08', runtime: 12, overview: '' }],
  },
  '95396/1': {
    _id: '5f1a0002',
    id: 146237,
    season_number: 1,
    name: 'Season 1',
    air_date: '2022-02-17',
    episodes: [
      { id: 1980441, episode_number: 1, season_number: 1, name: 'Good News About Hell', air_date: '2022-02-17', runtime: 57, overview: '' },
      { id: 3356113, episode_number: 2, season_number: 1, name: 'Half Loop', air_date: '2022-02-17', runtime: 53, overview: '' },
      { id: 3356114, episode_number: 3, season_number: 1, name: 'In Perpetuity', air_date: '2022-02-25', runtime: 47, overview: '' },
    ],
  },
  '95396/2': {
    _id: '5f1a0003',
    id: 393452,
    season_number: 2,
    name: 'Season 2',
    air_date: '2025-01-16',
    episodes: [
      { id: 5149551, episode_number: 1, season_number: 2, name: 'Hello, Ms. Cobel', air_date: '2025-01-16', runtime: 56, overview: '' },
      { id: 5691102, episode_number: 2, season_number: 2, name: 'Goodbye, Mrs. Selvig', air_date: '2025-01-23', runtime: 52, overview: '' },
      { id: 5691103, episode_number: 3, season_number: 2, name: 'Who Is Alive?', air_date: '2025-01-30', runtime: 49, overview: '' },
    ],
  },
  '95396/3': {
    _id: '5f1a0004',
    id: 455001,
    season_number: 3,
    name: 'Season 3',
    air_date: '2099-01-15',
    // An announced episode: no title and no runtime yet, an air date to come.
    episodes: [{ id: 9900001, episode_number: 1, season_number: 3, name: null, air_date: '2099-01-15', runtime: null, overview: '' }],
  },
};
