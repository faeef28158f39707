import { useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'wouter';
import { describeError, isAbort, type DescribedError } from '../../api/describe-error';
import { episodeCode, fetchDiary, type CursorList, type Play } from '../../api/play-calls';
import { ScreenTitle } from '../../app/screen-title';
import { useApi } from '../../app/services';
import { useCategory } from '../../categories/categories';
import { CategoryNav } from '../../categories/category-nav';
import { categoryWords, pictureNoun, playWords } from '../../categories/labels';
import { Field, LoadError } from '../../ui/field';
import { Poster } from '../../ui/poster';
import { EmptyState, Loading } from '../../ui/status';
import { NotFoundScreen } from '../not-found-screen';
import { playDate } from './play-date';

type Loaded = { state: 'loading' } | { state: 'done'; page: CursorList<Play> } | { state: 'error'; error: DescribedError };

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const dateParam = (value: string | null) => (value && DATE.test(value) ? value : undefined);

/** The day a play is filed under in the diary ("Date unknown" together at the end, as the API orders them). */
const dayOf = (play: Play) => (play.watched_at === null || play.precision === 'unknown' ? 'Date unknown' : play.watched_at.slice(0, 10));

/** `/:category/diary`: every play of the category, newest first, by day, within an optional date range. */
export function DiaryScreen() {
  const { category: categoryId } = useParams<{ category: string }>();
  const category = useCategory(categoryId);
  const api = useApi();
  const [params, setParams] = useSearchParams();
  const from = dateParam(params.get('from'));
  const to = dateParam(params.get('to'));
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const categoryKnown = Boolean(category);

  useEffect(() => setCursors([]), [categoryId, from, to]);
  useEffect(() => {
    if (!categoryKnown) return;
    const controller = new AbortController();
    setLoaded({ state: 'loading' });
    fetchDiary(api, categoryId, { from, to, cursor }, controller.signal).then(
      (page) => !controller.signal.aborted && setLoaded({ state: 'done', page }),
      (error: unknown) => !isAbort(error) && !controller.signal.aborted && setLoaded({ state: 'error', error: describeError(error) }),
    );
    return () => controller.abort();
  }, [api, categoryId, categoryKnown, from, to, cursor, attempt]);

  if (!category) return <NotFoundScreen what="category" loadingCategories />;
  const setRange = (key: 'from' | 'to', value: string) => {
    const next = new URLSearchParams(params);
    if (DATE.test(value)) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };
  const days = new Map<string, Play[]>();
  if (loaded.state === 'done') for (const play of loaded.page.data) days.set(dayOf(play), [...(days.get(dayOf(play)) ?? []), play]);
  const nextCursor = loaded.state === 'done' ? loaded.page.next_cursor : undefined;

  return (
    <section className="diary">
      <ScreenTitle title={`Diary · ${category.display_name}`}>Diary</ScreenTitle>
      <CategoryNav category={category} />
      <form className="diary__range" onSubmit={(event) => event.preventDefault()} aria-label="Dates">
        <Field label="From" name="from">
          {(control) => <input {...control} type="date" value={from ?? ''} max={to} onChange={(event) => setRange('from', event.target.value)} />}
        </Field>
        <Field label="To" name="to">
          {(control) => <input {...control} type="date" value={to ?? ''} min={from} onChange={(event) => setRange('to', event.target.value)} />}
        </Field>
      </form>
      {loaded.state === 'loading' && <Loading label="Loading your diary…" rows={5} />}
      {loaded.state === 'error' && <LoadError error={loaded.error} onRetry={() => setAttempt((n) => n + 1)} />}
      {loaded.state === 'done' && loaded.page.data.length === 0 && (
        <EmptyState title={from || to ? 'Nothing in these dates.' : `No ${categoryWords(category)} ${playWords(category).past} yet.`}>
          <p>Mark what you {playWords(category).past} from its page and it shows up here, day by day.</p>
        </EmptyState>
      )}
      {[...days].map(([day, plays]) => (
        <section key={day} className="diary__day" aria-label={day}>
          <h2 className="diary__date">{day === 'Date unknown' ? day : playDate({ watched_at: `${day}T00:00:00.000Z`, precision: 'day' })}</h2>
          <ul className="diary__plays">
            {plays.map((play) => (
              <li key={play.id} className="diary__play">
                <Poster work={{ title: play.item?.title ?? '', poster: play.item?.poster }} noun={pictureNoun(category)} />
                <Link href={`/${category.id}/${play.item_id}`}>{play.item?.title ?? 'Untitled'}</Link>
                {play.season !== null && <span className="card__meta"> {episodeCode(play)}</span>}
                {play.precision === 'exact' && play.watched_at && (
                  <span className="card__meta"> · {new Date(play.watched_at).toLocaleTimeString(undefined, { timeStyle: 'short' })}</span>
                )}
                {play.cycle > 1 && <span className="card__meta"> · again (time {play.cycle})</span>}
                {play.source !== 'manual' && <span className="card__meta"> · {play.source.replace(':', ' from ')}</span>}
              </li>
            ))}
          </ul>
        </section>
      ))}
      {(cursors.length > 0 || nextCursor) && (
        <nav className="pager" aria-label="Diary pages">
          <button type="button" className="button" disabled={cursors.length === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>
            ← Newer
          </button>
          <button type="button" className="button" disabled={!nextCursor} onClick={() => nextCursor && setCursors((c) => [...c, nextCursor])}>
            Older →
          </button>
        </nav>
      )}
    </section>
  );
}
