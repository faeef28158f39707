/** A short message in the page's live region ("3 entries moved to Completed" [Undo]). */
export interface Notice {
  id: number;
  text: string;
  tone: 'info' | 'error';
  action?: { label: string; run: () => void | Promise<void> };
}

export interface Notices {
  show(notice: Omit<Notice, 'id'>, timeoutMs?: number): number;
  dismiss(id: number): void;
  list(): readonly Notice[];
  subscribe(listener: () => void): () => void;
}

export function createNotices(): Notices {
  let items: readonly Notice[] = [];
  let nextId = 1;
  const listeners = new Set<() => void>();
  const set = (next: readonly Notice[]) => {
    items = next;
    for (const listener of [...listeners]) listener();
  };
  const notices: Notices = {
    show(notice, timeoutMs = notice.action ? 10_000 : 5_000) {
      const id = nextId++;
      // One at a time: a new notice replaces the last (an old Undo must not undo the wrong thing).
      set([{ ...notice, id }]);
      if (timeoutMs > 0) setTimeout(() => notices.dismiss(id), timeoutMs);
      return id;
    },
    dismiss(id) {
      if (items.some((n) => n.id === id)) set(items.filter((n) => n.id !== id));
    },
    list: () => items,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return notices;
}

/** A notice with Undo: `undo` runs when asked, and its failure is told in a notice of its own. */
export function showUndoable(notices: Notices, text: string, undo: () => Promise<void>, describe: (error: unknown) => string): void {
  notices.show({
    text,
    tone: 'info',
    action: {
      label: 'Undo',
      run: async () => {
        try {
          await undo();
        } catch (error) {
          notices.show({ text: `Could not undo: ${describe(error)}`, tone: 'error' });
        }
      },
    },
  });
}
