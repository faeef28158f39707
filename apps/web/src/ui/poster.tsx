/**
 * A work's picture: its poster or cover when the API gives a `poster_url`, otherwise a neutral placeholder
 * with the title's first letter. Decorative either way (the title is always written next to it).
 */
export function Poster({ title, url, size = 'small' }: { title: string; url?: string | null; size?: 'small' | 'large' }) {
  const className = `poster poster--${size}`;
  if (url) return <img className={className} src={url} alt="" loading="lazy" decoding="async" />;
  const initial = [...title.trim()][0]?.toUpperCase() ?? '?';
  return (
    <span className={`${className} poster--placeholder`} aria-hidden="true">
      {initial}
    </span>
  );
}
