import { useState } from 'react';

/** A work as any answer carries it: `poster` is the API's own image path (docs/api.md "Metadata providers and images"). */
export interface Pictured {
  title: string;
  poster?: string | null;
}

/**
 * The picture to show: only the API's own image path, served from this origin (the page allows images from
 * itself only, so a provider's absolute `poster_url` would never load).
 */
export const posterPath = (work: Pictured): string | null => (typeof work.poster === 'string' && work.poster.startsWith('/') ? work.poster : null);

/**
 * A work's poster or cover, or a neutral placeholder with the title's first letter when there is none (or it
 * fails to load). Its box is fixed by the size's width and a 2:3 ratio, so nothing moves when it arrives.
 */
export function Poster({ work, size = 'small', noun = 'Poster' }: { work: Pictured; size?: 'small' | 'large'; noun?: string }) {
  const src = posterPath(work);
  const [failed, setFailed] = useState<string | null>(null);
  const className = `poster poster--${size}`;
  if (src && failed !== src) return <img className={className} src={src} alt={`${noun} of ${work.title}`} loading="lazy" decoding="async" onError={() => setFailed(src)} />;
  const initial = [...work.title.trim()][0]?.toUpperCase() ?? '?';
  return (
    <span className={`${className} poster--placeholder`} aria-hidden="true">
      {initial}
    </span>
  );
}
