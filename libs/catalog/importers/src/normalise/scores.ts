/**
 * List scores (integer 1–10 or null) from the sources' ratings. Star ratings (0.5–5 in half stars on
 * Letterboxd, whole stars on Goodreads, quarter stars on StoryGraph) become stars × 2 rounded up, so no
 * rating is lowered: 0.5 → 1, 3.5 → 7, 3.75 → 8, 5 → 10. Ten-point ratings (IMDb, Trakt) are taken as they are.
 */
export function scoreFromStars(raw: string | number | null | undefined, warnings: string[]): number | null {
  const stars = numberOf(raw);
  if (stars === undefined) return invalid(raw, warnings);
  // 0 is how Goodreads writes "not rated".
  if (stars === 0) return null;
  if (stars < 0 || stars > 5) return invalid(raw, warnings);
  // Rounding to hundredths first keeps 0.1-style float noise from pushing a whole score up.
  return Math.max(1, Math.ceil(Math.round(stars * 200) / 100));
}

export function scoreFromTenPoints(
  raw: string | number | null | undefined,
  warnings: string[],
): number | null {
  const points = numberOf(raw);
  if (points === undefined) return invalid(raw, warnings);
  if (!Number.isInteger(points) || points < 1 || points > 10) return invalid(raw, warnings);
  return points;
}

function numberOf(raw: string | number | null | undefined): number | undefined {
  if (raw === null || raw === undefined) return undefined;
  const text = String(raw).trim();
  if (text === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

function invalid(raw: string | number | null | undefined, warnings: string[]): null {
  const text = raw === null || raw === undefined ? '' : String(raw).trim();
  if (text !== '') warnings.push(`rating '${text.slice(0, 20)}' is not a valid rating and was dropped`);
  return null;
}
