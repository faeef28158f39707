import { useCallback, useState } from 'react';
import type { CursorPage, SearchPosition } from '../../api/catalog-calls';

/**
 * Offset pages until the server sends `next_cursor`, then its cursors (a deep page costs the server no more
 * than the first). The positions already visited make "Previous" work for both.
 */
export function usePaging(resetKey: string) {
  const [state, setState] = useState<{ key: string; trail: SearchPosition[] }>({ key: resetKey, trail: [{ page: 1 }] });
  const trail = state.key === resetKey ? state.trail : [{ page: 1 }];
  if (state.key !== resetKey) setState({ key: resetKey, trail });
  const position = trail[trail.length - 1]!;

  const next = useCallback(
    (current: CursorPage<unknown>) =>
      setState((s) => {
        const at = s.trail[s.trail.length - 1]!;
        const following: SearchPosition =
          typeof current.next_cursor === 'string' ? { cursor: current.next_cursor } : { page: (at.page ?? current.page) + 1 };
        return { key: s.key, trail: [...s.trail, following] };
      }),
    [],
  );
  const previous = useCallback(() => setState((s) => ({ key: s.key, trail: s.trail.length > 1 ? s.trail.slice(0, -1) : s.trail })), []);

  return { position, pageNumber: trail.length, next, previous, hasPrevious: trail.length > 1 };
}

export const hasNextPage = (page: CursorPage<unknown>) =>
  page.next_cursor === undefined ? page.page < page.total_pages : typeof page.next_cursor === 'string';
