import type { Category } from '@mt/api-client';
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { useApi } from '../app/services';
import { describeError } from '../api/describe-error';

interface CategoriesState {
  categories: Category[];
  loading: boolean;
  error?: string;
  reload(): void;
}

const CategoriesContext = createContext<CategoriesState | undefined>(undefined);

/** The categories the gateway routes right now (GET /api/v1/categories): no list is written into the app. */
export function CategoriesProvider({ children }: { children: ReactNode }) {
  const api = useApi();
  const [state, setState] = useState<Omit<CategoriesState, 'reload'>>({ categories: [], loading: true });
  const [attempt, setAttempt] = useState(0);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);

  useEffect(() => {
    let current = true;
    setState((s) => ({ ...s, loading: true, error: undefined }));
    api.categories().then(
      (categories) => current && setState({ categories, loading: false }),
      (error: unknown) => current && setState({ categories: [], loading: false, error: describeError(error).message }),
    );
    return () => {
      current = false;
    };
  }, [api, attempt]);

  return <CategoriesContext.Provider value={{ ...state, reload }}>{children}</CategoriesContext.Provider>;
}

export function useCategories(): CategoriesState {
  const state = useContext(CategoriesContext);
  if (!state) throw new Error('useCategories outside CategoriesProvider');
  return state;
}

export function useCategory(id: string | undefined): Category | undefined {
  return useCategories().categories.find((c) => c.id === id);
}
