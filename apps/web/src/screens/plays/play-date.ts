import type { Play } from '../../api/play-calls';
import { formatTime } from '../../ui/format-time';

/** When a play happened, in the words its precision allows: a time, a day, "on release", or "date unknown". */
export function playDate(play: Pick<Play, 'watched_at' | 'precision'>): string {
  if (play.watched_at === null || play.precision === 'unknown') return 'Date unknown';
  const at = new Date(play.watched_at);
  if (play.precision === 'exact') return formatTime(play.watched_at);
  const day = at.toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
  return play.precision === 'release' ? `${day} (on release)` : day;
}
