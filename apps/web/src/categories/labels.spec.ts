import type { Category } from '@mt/api-client';
import { describe, expect, it } from 'vitest';
import { categoryWords, entryNoun, progressText } from './labels';

const category = (display_name: string, progress_unit?: string) => ({ id: 'x', display_name, progress_unit }) as unknown as Category;

describe('category words', () => {
  it('keeps an acronym in capitals inside a sentence ("My TV shows", never "My tv shows")', () => {
    expect(categoryWords(category('TV Shows'))).toBe('TV shows');
    expect(categoryWords(category('Movies'))).toBe('movies');
    expect(entryNoun(category('TV Shows'))).toBe('TV show');
  });

  it('tells progress against the work length when it is known', () => {
    expect(progressText(category('TV Shows', 'episodes'), 3, 62)).toBe('3 / 62 episodes');
    expect(progressText(category('Books', 'pages'), 120, null)).toBe('120 pages');
    expect(progressText(category('Books', 'pages'), null, null)).toBeUndefined();
  });
});
