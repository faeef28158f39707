import request from 'supertest';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asModerator, asUser, newUserId } from '../../../test/identity-headers';

describe('moderator PATCH', () => {
  let h: CatalogHarness;
  const creator = newUserId();
  const stranger = newUserId();
  const moderator = newUserId();
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
  });
  afterAll(() => h.close());

  const create = (title: string) => request(h.app).post('/api/v1/movies').set(asUser(creator)).send({ title });
  const patch = (id: string, headers: Record<string, string>, body: object) => request(h.app).patch(`/api/v1/movies/${id}`).set(headers).send(body);

  it("lets a catalog:moderate credential change anyone's entry, while others still get 403", async () => {
    const entry = await create('Moderated Title');
    expect((await patch(entry.body.id, asUser(stranger), { year: 1999 })).status).toBe(403);
    const changed = await patch(entry.body.id, asModerator(moderator), { year: 1999, external_ids: { imdb: 'tt0999999' } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ year: 1999, created_by: creator, external_ids: { imdb: 'tt0999999' } });
  });

  it('lets a moderator correct an entry whose creator deleted their account (created_by null)', async () => {
    const entry = await create('Orphaned Title');
    await h.module.catalogRepository.releaseCreator(creator);
    expect((await patch(entry.body.id, asUser(creator), { year: 2001 })).status).toBe(403);
    const changed = await patch(entry.body.id, asModerator(moderator), { year: 2001 });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ year: 2001, created_by: null });
  });

  it('answers 404 for an unknown entry and keeps the duplicate rule (409) for moderators too', async () => {
    expect((await patch('f'.repeat(24), asModerator(moderator), { year: 2001 })).status).toBe(404);
    const a = await create('Moderated Dup A');
    await create('Moderated Dup B');
    const dup = await patch(a.body.id, asModerator(moderator), { title: 'Moderated Dup B' });
    expect(dup.status).toBe(409);
  });
});
