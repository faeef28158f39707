import type { Category, Home, HomeEntry } from '@mt/api-client';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { describeError, type DescribedError } from '../../api/describe-error';
import { episodeCode, type NextEpisode } from '../../api/play-calls';
import { ScreenTitle } from '../../app/screen-title';
import { useApi, useSession } from '../../app/services';
import { useCategories } from '../../categories/categories';
import { pictureNoun, progressText, statusLabel } from '../../categories/labels';
import { LoadError } from '../../ui/field';
import { Poster } from '../../ui/poster';
import { EmptyState, Loading } from '../../ui/status';
import { SearchEverywhere } from './search-everywhere';

type Loaded = { state: 'loading'; value?: Home } | { state: 'done'; value: Home } | { state: 'error'; error: DescribedError; value?: Home };

/** `/`: a signed-in person's home (up next, recently finished, this month, one search); a welcome otherwise. */
export function HomeScreen() {
  const session = useSession();
  if (!session) return <Welcome />;
  return <PersonalHome />;
}

function Welcome() {
  return (
    <section className="home">
      <ScreenTitle title="Media Tracker">Media Tracker</ScreenTitle>
      <p className="home__intro">
        Keep track of the films you watch, the shows you follow and the books you read. <Link href="/register">Create an account</Link> or{' '}
        <Link href="/login">log in</Link> to keep your lists.
      </p>
      <SearchEverywhere />
    </section>
  );
}

function PersonalHome() {
  const api = useApi();
  const { categories } = useCategories();
  const [home, setHome] = useState<Loaded>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const reload = () => setAttempt((n) => n + 1);

  useEffect(() => {
    let current = true;
    setHome((h) => ({ state: 'loading', value: h.value }));
    api.home().then(
      (value) => current && setHome({ state: 'done', value }),
      (error: unknown) => current && setHome((h) => ({ state: 'error', error: describeError(error), value: h.value })),
    );
    return () => {
      current = false;
    };
  }, [api, attempt]);

  const value = home.value;
  const categoryOf = (id: string) => categories.find((c) => c.id === id);
  const empty = value && value.month.by_category.every((glance) => glance.total === 0);

  return (
    <section className="home">
      <ScreenTitle title="Home">Home</ScreenTitle>
      <SearchEverywhere onListChanged={reload} />
      {home.state === 'error' && <LoadError error={home.error} onRetry={reload} />}
      {!value && home.state === 'loading' && <Loading label="Loading your home…" rows={4} />}
      {value && value.unavailable.length > 0 && (
        <p className="note">Missing right now: {value.unavailable.map((u) => categoryOf(u.category)?.display_name ?? u.category).join(', ')} (the service is not answering).</p>
      )}
      {empty && (
        <EmptyState title="Nothing on your lists yet.">
          <p>Search above for a film, a show or a book and add it: what you are watching or reading then shows up here, with your progress.</p>
        </EmptyState>
      )}
      {value && !empty && (
        <>
          <HomeSection title="Up next" id="up-next" entries={value.up_next} categoryOf={categoryOf} emptyText="Nothing in progress. Mark something as watching or reading and it appears here." />
          {value.planned.length > 0 && <HomeSection title="Planned" id="planned" entries={value.planned} categoryOf={categoryOf} emptyText="" />}
          <HomeSection title="Recently finished" id="finished" entries={value.recently_finished} categoryOf={categoryOf} emptyText="Nothing finished yet." />
          <MonthGlance home={value} categoryOf={categoryOf} />
        </>
      )}
    </section>
  );
}

function HomeSection(props: { title: string; id: string; entries: HomeEntry[]; categoryOf: (id: string) => Category | undefined; emptyText: string }) {
  return (
    <section className="home__section" aria-labelledby={`${props.id}-title`}>
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      {props.entries.length === 0 ? (
        <p className="note">{props.emptyText}</p>
      ) : (
        <ul className="cards cards--grid">
          {props.entries.map((entry) => (
            <EntryCard key={`${entry.category}/${entry.item.id}`} entry={entry} category={props.categoryOf(entry.category)} />
          ))}
        </ul>
      )}
    </section>
  );
}

function EntryCard({ entry, category }: { entry: HomeEntry; category: Category | undefined }) {
  // Nothing done yet on something planned: its length alone says nothing about progress.
  const next = (entry as HomeEntry & { next_episode?: NextEpisode | null }).next_episode;
  const progress = entry.progress === null && entry.status !== 'watching' ? undefined : progressText(category, entry.progress, entry.item.progress_total);
  return (
    <li className="card card--work">
      <Poster work={entry.item} noun={pictureNoun(category)} />
      <div className="card__body">
        <Link href={`/${entry.category}/${entry.item.id}`} className="card__title">
          {entry.item.title}
        </Link>
        <span className="card__meta">
          {category?.display_name ?? entry.category} · {statusLabel(category, entry.status)}
          {entry.status === 'completed' && entry.finished_at && ` · ${entry.finished_at}`}
        </span>
        {progress && entry.status !== 'completed' && <span className="card__meta">{progress}</span>}
        {next && (
          <span className="card__next">
            Next: {episodeCode(next)}
            {next.title && ` “${next.title}”`}
          </span>
        )}
      </div>
    </li>
  );
}

function MonthGlance({ home, categoryOf }: { home: Home; categoryOf: (id: string) => Category | undefined }) {
  return (
    <section className="home__section" aria-labelledby="month-title">
      <h2 id="month-title">This month</h2>
      <p>
        {home.month.finished === 1 ? '1 finished' : `${home.month.finished} finished`} in {monthName(home.month.month)}.
      </p>
      <ul className="glance">
        {home.month.by_category.map((glance) => {
          const category = categoryOf(glance.category);
          return (
            <li key={glance.category} className="glance__item">
              <Link href={`/${glance.category}/list`}>{category?.display_name ?? glance.category}</Link>
              <span className="card__meta">
                {glance.by_status.watching} {statusLabel(category, 'watching').toLowerCase()} · {glance.finished_this_month} {statusLabel(category, 'completed').toLowerCase()} this month · {glance.total} on your list
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

const monthName = (month: string) => new Date(`${month}-01T00:00:00Z`).toLocaleDateString(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });
