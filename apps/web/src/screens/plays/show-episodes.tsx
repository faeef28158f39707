import type { Category, ListEntry } from '@mt/api-client';
import { useEffect, useState } from 'react';
import { describeError, isAbort, type DescribedError } from '../../api/describe-error';
import { addPlays, episodeCode, fetchShowProgress, type EpisodeProgress, type PlaysRequest, type ShowProgress } from '../../api/play-calls';
import { useSubmit } from '../../api/use-submit';
import { useApi, useServices } from '../../app/services';
import { FormError, LoadError } from '../../ui/field';
import { Loading } from '../../ui/status';
import { hasAired, unmarkEpisode } from './play-actions';

type Loaded = { state: 'loading'; value?: ShowProgress } | { state: 'done'; value: ShowProgress } | { state: 'error'; error: DescribedError; value?: ShowProgress };

const seasonName = (n: number) => (n === 0 ? 'Specials' : `Season ${n}`);

/** "12 / 62 episodes": played in this cycle out of the aired ones of the regular seasons. */
const episodesText = (completed: number, aired: number) => `${completed} / ${aired} ${aired === 1 ? 'episode' : 'episodes'}`;

/**
 * A show's episodes season by season, each ticked when played in the current cycle: mark one, a season or
 * every aired one; unticking deletes that episode's play. The list entry follows (status, progress) and is
 * read again after each change, so the page shows what the server derived.
 */
export function ShowEpisodes(props: { category: Category; itemId: string; entry: ListEntry; onEntryChange: (entry: ListEntry) => void }) {
  const { category, itemId, onEntryChange } = props;
  const api = useApi();
  const { notices } = useServices();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [reloads, setReloads] = useState(0);
  const version = props.entry.updated_at;

  useEffect(() => {
    const controller = new AbortController();
    setLoaded((l) => ({ state: 'loading', value: l.value }));
    fetchShowProgress(api, itemId, controller.signal).then(
      (value) => !controller.signal.aborted && setLoaded({ state: 'done', value }),
      (error: unknown) => !isAbort(error) && !controller.signal.aborted && setLoaded((l) => ({ state: 'error', error: describeError(error), value: l.value })),
    );
    return () => controller.abort();
  }, [api, itemId, version, reloads]);

  const afterChange = async (said: string) => {
    onEntryChange(await api.getListEntry(category.id, itemId));
    setReloads((n) => n + 1);
    notices.show({ text: said, tone: 'info' });
  };

  const mark = useSubmit(async (body: PlaysRequest, said: string) => {
    const result = await addPlays(api, category.id, itemId, { watched_at: 'now', ...body });
    await afterChange(result.added.length === 0 ? 'Already marked as watched.' : said);
  });
  const unmark = useSubmit(async (episode: EpisodeProgress, season: number, cycle: number) => {
    await unmarkEpisode(api, category.id, itemId, episode.id, cycle);
    await afterChange(`${episodeCode({ season, number: episode.number })} unmarked.`);
  });
  const busy = mark.pending || unmark.pending;
  const error = mark.error ?? unmark.error;

  const progress = loaded.value;
  if (!progress) return loaded.state === 'error' ? <LoadError error={loaded.error} onRetry={() => setReloads((n) => n + 1)} /> : <Loading label="Loading the episodes…" rows={3} />;
  const next = progress.next_episode;
  // Marking a season or every aired episode plays only the ones not played in this cycle: the API would add
  // a second play of those already ticked, which the diary would then show twice.
  const unplayed = (seasons: ShowProgress['seasons']) =>
    seasons.flatMap((season) => (season.number === 0 ? [] : season.episodes.filter((episode) => episode.plays === 0 && hasAired(episode)))).map((episode) => ({ episode_id: episode.id }));
  const allUnplayed = unplayed(progress.seasons);
  if (progress.seasons.length === 0)
    return (
      <section className="episodes" aria-labelledby="episodes-title">
        <h2 id="episodes-title">Episodes</h2>
        <p className="note">The catalog lists no episodes for this show yet: count your progress above.</p>
      </section>
    );

  return (
    <section className="episodes" aria-labelledby="episodes-title" aria-busy={busy || loaded.state === 'loading'}>
      <h2 id="episodes-title">Episodes</h2>
      <div className="episodes__summary">
        <p className="episodes__count">
          <strong>{episodesText(progress.completed, progress.aired)}</strong>
          {progress.cycle > 1 && <span className="card__meta"> · watching again (time {progress.cycle})</span>}
        </p>
        {progress.aired > 0 && <progress max={progress.aired} value={progress.completed} aria-label="Episodes watched" />}
        <p className="episodes__next">
          {next ? (
            <>
              Next: <strong>{episodeCode(next)}</strong>
              {next.title && <> “{next.title}”</>}
              {!hasAired(next) && <> ({next.air_date ? `airs ${next.air_date}` : 'not aired yet'})</>}
            </>
          ) : (
            progress.aired > 0 && 'Every aired episode is watched.'
          )}
        </p>
      </div>
      <div className="episodes__actions">
        {next && hasAired(next) && (
          <button type="button" className="button button--primary" disabled={busy} onClick={() => void mark.submit({ episodes: [{ episode_id: next.id }] }, `${episodeCode(next)} marked as watched.`)}>
            Mark {episodeCode(next)} watched
          </button>
        )}
        <button type="button" className="button" disabled={busy || allUnplayed.length === 0} onClick={() => void mark.submit({ episodes: allUnplayed }, 'Every aired episode marked as watched.')}>
          Mark all aired watched
        </button>
      </div>
      <FormError error={error?.message} requestId={error?.requestId} />
      {loaded.state === 'error' && <LoadError error={loaded.error} onRetry={() => setReloads((n) => n + 1)} />}
      {progress.seasons.map((season) => (
        <details key={season.number} className="season" open={next ? next.season === season.number : season.number === 1}>
          <summary>
            {seasonName(season.number)} <span className="card__meta">{season.number === 0 ? `${season.episodes.filter((e) => e.plays > 0).length} watched` : episodesText(season.completed, season.aired)}</span>
          </summary>
          <button
            type="button"
            className="button button--small"
            disabled={busy || season.aired === 0 || season.completed >= season.aired}
            onClick={() => void mark.submit({ episodes: unplayed([season]) }, `${seasonName(season.number)} marked as watched.`)}
          >
            Mark {seasonName(season.number).toLowerCase()} watched
          </button>
          <ul className="season__episodes">
            {season.episodes.map((episode) => (
              <li key={episode.id} className="episode">
                <label>
                  <input
                    type="checkbox"
                    checked={episode.plays > 0}
                    disabled={busy}
                    onChange={(event) => {
                      const code = episodeCode({ season: season.number, number: episode.number });
                      if (event.target.checked) void mark.submit({ episodes: [{ episode_id: episode.id }] }, `${code} marked as watched.`);
                      else void unmark.submit(episode, season.number, progress.cycle);
                    }}
                  />
                  <span className="episode__number">{episode.number}.</span> {episode.title ?? `Episode ${episode.number}`}
                </label>
                <span className="card__meta">{hasAired(episode) ? episode.air_date : episode.air_date ? `Airs ${episode.air_date}` : 'Air date unknown'}</span>
              </li>
            ))}
          </ul>
        </details>
      ))}
    </section>
  );
}
