/** What makes two plays the same viewing for an import: the episode (or the whole work) and the time. */
export interface PlayFacts {
  season: number | null;
  number: number | null;
  /** ISO date-time; null when unknown. */
  watched_at: string | null;
}

const keyOf = (play: PlayFacts): string => `${play.season ?? '-'}x${play.number ?? '-'}@${play.watched_at ?? 'unknown'}`;

/**
 * The plays of a file that the list does not have yet, counted as multisets: a play of the same episode at
 * the same time is the same viewing, however many times the file is imported and whichever file brought it
 * first (a diary and its reviews; an export imported back into its own account). Two plays of one episode at
 * an unknown time in the file and one on the list: one is added.
 */
export function playsToAdd<Play extends PlayFacts>(wanted: readonly Play[], existing: readonly PlayFacts[]): Play[] {
  const held = new Map<string, number>();
  for (const play of existing) held.set(keyOf(play), (held.get(keyOf(play)) ?? 0) + 1);
  return wanted.filter((play) => {
    const left = held.get(keyOf(play)) ?? 0;
    if (left === 0) return true;
    held.set(keyOf(play), left - 1);
    return false;
  });
}
