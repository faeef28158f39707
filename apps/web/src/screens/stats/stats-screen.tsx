import type { Category, ListStatus } from '@mt/api-client';
import { useCallback, useEffect, useState } from 'react';
import { Link, useParams } from 'wouter';
import { describeError, isAbort, type DescribedError } from '../../api/describe-error';
import { getStats, type ListStats } from '../../api/list-io-calls';
import { ScreenTitle } from '../../app/screen-title';
import { useApi } from '../../app/services';
import { useCategory } from '../../categories/categories';
import { CategoryNav } from '../../categories/category-nav';
import { categoryWords, progressUnit, STATUSES, statusLabel } from '../../categories/labels';
import { BarChart, type Bar } from '../../ui/bar-chart';
import { LoadError } from '../../ui/field';
import { EmptyState, Loading } from '../../ui/status';
import { NotFoundScreen } from '../not-found-screen';

type Loaded = { state: 'loading' } | { state: 'done'; stats: ListStats } | { state: 'error'; error: DescribedError };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Scores 1–10, every one present (the API sends every key; a missing one counts 0). */
export function scoreBars(stats: ListStats): Bar[] {
  return Array.from({ length: 10 }, (_, i) => String(i + 1)).map((score) => ({ key: score, label: score, value: stats.score_histogram[score] ?? 0 }));
}

/** Completions per year, from the first year with one to the last, the years between included (as 0). */
export function yearBars(stats: ListStats): Bar[] {
  const years = Object.keys(stats.completed_by_year)
    .map(Number)
    .filter((y) => Number.isInteger(y));
  if (!years.length) return [];
  const first = Math.min(...years);
  const last = Math.max(...years);
  // A long history keeps its last 30 years on the chart (it stays legible at 360 px).
  const from = Math.max(first, last - 29);
  return Array.from({ length: last - from + 1 }, (_, i) => String(from + i)).map((year) => ({
    key: year,
    label: year,
    value: stats.completed_by_year[year] ?? 0,
  }));
}

export function statusBars(stats: ListStats, category: Category): Bar[] {
  return STATUSES.map((status: ListStatus) => ({ key: status, label: statusLabel(category, status), value: stats.by_status[status] ?? 0 }));
}

const describeBars = (bars: Bar[], unit: string) =>
  bars.filter((b) => b.value > 0).map((b) => `${b.label}: ${b.value}`).join(', ') || `no ${unit} yet`;

export function StatsScreen() {
  const { category: categoryId } = useParams<{ category: string }>();
  const category = useCategory(categoryId);
  const api = useApi();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [reloads, setReloads] = useState(0);
  const reload = useCallback(() => setReloads((n) => n + 1), []);
  const categoryKnown = Boolean(category);

  useEffect(() => {
    if (!categoryKnown) return;
    const controller = new AbortController();
    setLoaded({ state: 'loading' });
    getStats(api, categoryId, controller.signal).then(
      (stats) => !controller.signal.aborted && setLoaded({ state: 'done', stats }),
      (error: unknown) => !isAbort(error) && !controller.signal.aborted && setLoaded({ state: 'error', error: describeError(error) }),
    );
    return () => controller.abort();
  }, [api, categoryId, categoryKnown, reloads]);

  if (!category) return <NotFoundScreen what="category" loadingCategories />;
  const name = categoryWords(category);
  const unit = progressUnit(category);

  return (
    <section className="stats-screen">
      <ScreenTitle title={`Statistics of my ${name}`}>Statistics of my {name}</ScreenTitle>
      <CategoryNav category={category} />
      {loaded.state === 'loading' && <Loading rows={5} label="Loading your statistics…" />}
      {loaded.state === 'error' && (
        <LoadError error={loaded.error} onRetry={reload} />
      )}
      {loaded.state === 'done' && loaded.stats.total === 0 && (
        <EmptyState title={`Your ${name} list is empty: nothing to count yet.`}>
          <Link href={`/${category.id}`} className="button button--primary">
            Find {name} to add
          </Link>
        </EmptyState>
      )}
      {loaded.state === 'done' && loaded.stats.total > 0 && <Stats stats={loaded.stats} category={category} unit={unit} />}
    </section>
  );
}

function Stats({ stats, category, unit }: { stats: ListStats; category: Category; unit?: string }) {
  const statuses = statusBars(stats, category);
  const scores = scoreBars(stats);
  const years = yearBars(stats);
  const scored = scores.reduce((sum, b) => sum + b.value, 0);
  return (
    <div className="stack">
      <dl className="counts">
        <div className="counts__item">
          <dt>On your list</dt>
          <dd>{stats.total}</dd>
        </div>
        {statuses.map((bar) => (
          <div key={bar.key} className="counts__item">
            <dt>{bar.label}</dt>
            <dd>{bar.value}</dd>
          </div>
        ))}
        <div className="counts__item">
          <dt>Mean score</dt>
          <dd>{stats.mean_score === null ? '—' : stats.mean_score.toFixed(1)}</dd>
        </div>
        <div className="counts__item">
          <dt>{unit ? `Progress (${unit})` : 'Progress'}</dt>
          <dd>{stats.progress_total}</dd>
        </div>
      </dl>
      <div className="charts">
        <BarChart
          title="Scores given"
          bars={scores}
          summary={scored ? `${plural(scored, 'entry', 'entries')} scored, mean ${stats.mean_score?.toFixed(1) ?? '—'}; ${describeBars(scores, 'scores')}` : 'no entry is scored yet'}
        />
        {years.length > 0 ? (
          <BarChart title={`${statusLabel(category, 'completed')} per year`} bars={years} summary={describeBars(years, 'completions')} />
        ) : (
          <p className="note">Nothing {statusLabel(category, 'completed').toLowerCase()} with a finish date yet: the per-year chart appears with the first one.</p>
        )}
      </div>
    </div>
  );
}
