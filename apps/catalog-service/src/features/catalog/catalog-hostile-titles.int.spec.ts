import { mongo } from 'mongoose';
import request from 'supertest';
import { constructedHostileTitles, expandingCodePoints, repeatedTitle } from '../../../test/hostile-titles';
import { startCatalogHarness, type CatalogHarness } from '../../../test/catalog-harness';
import { asUser, newUserId } from '../../../test/identity-headers';
import { COLLECTIONS } from '../../data/database';

const KIB = 1024;

/** Titles whose characters fold into many (NFKD), stored and searched through the API. */
describe('catalog titles that fold into many characters (movies)', () => {
  let h: CatalogHarness;
  const user = newUserId();
  beforeAll(async () => {
    h = await startCatalogHarness({ category: 'movies' });
  });
  afterAll(() => h.close());

  const create = (body: object) => request(h.app).post('/api/v1/movies').set(asUser(user)).send(body);
  const storedBytes = async (id: string) => {
    const doc = await h.module.connection
      .db!.collection(COLLECTIONS.entries)
      .findOne({ _id: new mongo.ObjectId(id) });
    return mongo.BSON.calculateObjectSize(doc!);
  };
  const searchTitles = async (q: string) => {
    const res = await request(h.app)
      .get(`/api/v1/movies?q=${encodeURIComponent(q)}&limit=100`)
      .expect(200);
    return (res.body.data as Array<{ title: string }>).map((entry) => entry.title);
  };

  const worst = expandingCodePoints().slice(0, 6);
  const titles: Array<[string, string]> = [
    ...worst.map((char): [string, string] => [
      `U+${char.codePointAt(0)!.toString(16).toUpperCase()} × 300`,
      repeatedTitle(char),
    ]),
    ...Object.entries(constructedHostileTitles()),
  ];

  it.each(titles)(
    'stores %s in under 64 KiB and answers 201 with the title unchanged',
    async (_name, title) => {
      const res = await create({ title });
      expect(res.status).toBe(201);
      expect(res.body.title).toBe(title);
      expect(await storedBytes(res.body.id)).toBeLessThan(64 * KIB);
    },
  );

  it('finds the 300 × U+3316 title by a prefix of its word and by a query word longer than the indexed 20 letters', async () => {
    const title = repeatedTitle('\u3316');
    expect(await searchTitles('キロメ')).toContain(title);
    expect(await searchTitles('\u3316'.repeat(10))).toContain(title);
    // The stored word is cut at 20 letters: anything after that in a query word is not compared.
    expect(await searchTitles(`${'\u3316'.repeat(3)}${'\u3316'.repeat(5)}X`)).toContain(title);
  });

  it('keeps finding ordinary titles the usual way next to them', async () => {
    await create({ title: 'The Matrix', year: 1999 }).expect(201);
    await create({ title: 'Mary Poppins: Supercalifragilisticexpialidocious', year: 1964 }).expect(201);
    expect(await searchTitles('matr')).toEqual(['The Matrix']);
    expect(await searchTitles('the matrix')).toEqual(['The Matrix']);
    expect(await searchTitles('supercal')).toEqual(['Mary Poppins: Supercalifragilisticexpialidocious']);
    expect(await searchTitles('supercalifragilisticexpialidocious poppins')).toEqual([
      'Mary Poppins: Supercalifragilisticexpialidocious',
    ]);
  });
});
