import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, baseServer, CATEGORIES, json } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';

const BOOK_LABELS = { watching: 'Reading', completed: 'Read', on_hold: 'Paused', dropped: 'Abandoned', plan_to_watch: 'Want to read' };
const histogram = (scores: Record<string, number>) => Object.fromEntries(Array.from({ length: 10 }, (_, i) => [String(i + 1), scores[String(i + 1)] ?? 0]));

const stats = (extra: Record<string, unknown> = {}) => ({
  total: 6,
  by_status: { watching: 1, completed: 3, on_hold: 0, dropped: 1, plan_to_watch: 1 },
  mean_score: 7.5,
  score_histogram: histogram({ '7': 1, '8': 1 }),
  progress_total: 1234,
  completed_by_year: { '2023': 1, '2025': 2 },
  ...extra,
});

const server = (body: unknown, status = 200) =>
  baseServer()
    .on('GET', '/api/v1/categories', () => json(200, CATEGORIES.map((c) => (c.id === 'books' ? { ...c, status_labels: BOOK_LABELS, progress_unit: 'pages' } : c))))
    .on('GET', '/api/v1/books/list/stats', () => (status === 200 ? json(200, body) : apiError(status, 'service_unavailable', 'down')));

const number = (term: string) => {
  const dt = screen.getAllByText(term, { selector: 'dt' })[0]!;
  return dt.nextElementSibling?.textContent;
};

describe('statistics', () => {
  it("shows totals by the category's status labels, the mean score and the progress in its unit", async () => {
    renderApp(server(stats()), '/books/stats');
    await screen.findByText('On your list');
    expect(number('On your list')).toBe('6');
    expect(number('Read')).toBe('3');
    expect(number('Want to read')).toBe('1');
    expect(number('Mean score')).toBe('7.5');
    expect(number('Progress (pages)')).toBe('1234');
  });

  it('draws the score histogram and completions per year as images with their numbers in words and in a table', async () => {
    renderApp(server(stats()), '/books/stats');
    const scores = await screen.findByRole('img', { name: /^Scores given:/ });
    expect(scores.getAttribute('aria-label')).toBe('Scores given: 2 entries scored, mean 7.5; 7: 1, 8: 1');
    expect(scores.querySelectorAll('rect')).toHaveLength(10);
    const years = screen.getByRole('img', { name: /^Read per year:/ });
    // The year between two with completions is drawn (as 0), so the axis is a real time line.
    expect(years.getAttribute('aria-label')).toBe('Read per year: 2023: 1, 2025: 2');
    expect(years.querySelectorAll('rect')).toHaveLength(3);
    const table = screen.getByRole('table', { name: 'Read per year' });
    expect(within(table).getAllByRole('row').map((r) => r.textContent)).toEqual(['20231', '20240', '20252']);
  });

  it('says when nothing is scored or finished yet', async () => {
    renderApp(server(stats({ mean_score: null, score_histogram: histogram({}), completed_by_year: {} })), '/books/stats');
    expect((await screen.findByRole('img', { name: /^Scores given:/ })).getAttribute('aria-label')).toBe('Scores given: no entry is scored yet');
    expect(number('Mean score')).toBe('—');
    expect(screen.getByText(/Nothing read with a finish date yet/)).toBeTruthy();
  });

  it('shows an empty state for an empty list', async () => {
    renderApp(server(stats({ total: 0, by_status: { watching: 0, completed: 0, on_hold: 0, dropped: 0, plan_to_watch: 0 } })), '/books/stats');
    expect(await screen.findByText('Your books list is empty: nothing to count yet.')).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('shows an error in words and loads again on request', async () => {
    let calls = 0;
    const s = server(stats(), 503).on('GET', '/api/v1/books/list/stats', () => (++calls === 1 ? apiError(503, 'service_unavailable', 'down') : json(200, stats())));
    renderApp(s, '/books/stats');
    expect((await screen.findByRole('alert')).textContent).toContain('The service is not available right now.');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('On your list')).toBeTruthy();
  });
});
