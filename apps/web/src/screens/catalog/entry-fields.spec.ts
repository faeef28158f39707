import type { CatalogEntry } from '@mt/api-client';
import { describe, expect, it } from 'vitest';
import { ownFields } from './entry-fields';

describe("an entry's own fields", () => {
  it('lists the category fields but not the picture, which the page shows as an image', () => {
    const entry = { id: 'a'.repeat(24), title: 'Alien', year: 1979, runtime_minutes: 117, director: 'Ridley Scott', poster_url: 'https://image.tmdb.org/t/p/w500/a.jpg', poster: '/api/v1/images/tmdb/w500/a.jpg' } as unknown as CatalogEntry;
    expect(ownFields(entry).map((f) => f.label)).toEqual(['Runtime minutes', 'Director']);
  });
});
