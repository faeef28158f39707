import { useEffect } from 'react';

/** Each screen names itself in the tab title (and for screen readers on navigation). */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · Media Tracker` : 'Media Tracker';
  }, [title]);
}
