import request from 'supertest';
import type { CatalogHarness } from './catalog-harness';
import { asUser } from './identity-headers';

/** HTTP helpers for plays specs: one harness, one category, the caller's headers per call. */
export function playsClient(h: CatalogHarness, category: string) {
  const base = `/api/v1/${category}`;
  return {
    createItem: async (creator: string, body: object) => {
      const res = await request(h.app).post(base).set(asUser(creator)).send(body);
      if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id as string;
    },
    putSeason: (creator: string, id: string, season: number, episodes: object[]) => request(h.app).put(`${base}/${id}/seasons/${season}`).set(asUser(creator)).send({ episodes }),
    play: (user: string, id: string, body: object = {}) => request(h.app).post(`${base}/list/${id}/plays`).set(asUser(user)).send(body),
    plays: (user: string, id: string, query: object = {}) => request(h.app).get(`${base}/list/${id}/plays`).set(asUser(user)).query(query),
    unplay: (user: string, id: string, playId: string) => request(h.app).delete(`${base}/list/${id}/plays/${playId}`).set(asUser(user)),
    rewatch: (user: string, id: string) => request(h.app).post(`${base}/list/${id}/rewatch`).set(asUser(user)),
    entry: (user: string, id: string) => request(h.app).get(`${base}/list/${id}`).set(asUser(user)),
    patch: (user: string, id: string, body: object) => request(h.app).patch(`${base}/list/${id}`).set(asUser(user)).send(body),
    progress: (user: string, id: string) => request(h.app).get(`${base}/list/${id}/progress`).set(asUser(user)),
    upNext: (user: string, query: object = {}) => request(h.app).get(`${base}/list/up-next`).set(asUser(user)).query(query),
    diary: (user: string, query: object = {}) => request(h.app).get(`${base}/list/plays`).set(asUser(user)).query(query),
    batch: (user: string, items: object[]) => request(h.app).post(`${base}/list/plays/batch`).set(asUser(user)).send({ items }),
    changes: (user: string, query: object = {}) => request(h.app).get(`${base}/list/changes`).set(asUser(user)).query({ limit: 500, ...query }),
  };
}

/** `count` episodes numbered from 1, aired one week apart from `firstAir` (null: not aired yet). */
export const weekly = (count: number, firstAir: string | null) =>
  Array.from({ length: count }, (_, i) => ({
    number: i + 1,
    title: `Episode ${i + 1}`,
    air_date: firstAir === null ? null : new Date(new Date(`${firstAir}T00:00:00.000Z`).getTime() + i * 7 * 86_400_000).toISOString().slice(0, 10),
    runtime_minutes: 45,
  }));
