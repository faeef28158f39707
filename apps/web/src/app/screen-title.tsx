import type { ReactNode } from 'react';
import { useDocumentTitle } from '../ui/use-document-title';

/** The screen's h1, which also names the tab and takes focus after a navigation (see Layout). */
export function ScreenTitle({ children, title }: { children: ReactNode; title: string }) {
  useDocumentTitle(title);
  return (
    <h1 tabIndex={-1} className="screen-title">
      {children}
    </h1>
  );
}
