import type { paths } from './generated/schema';
import type { KnownCategory } from './types';

/**
 * The per-category paths of the document (`/api/v1/movies/list`...) folded into category-generic ones
 * (`/api/v1/{category}/list`), typed from the generated operations of every known category, so a client can
 * call a category it learned at run time (GET /api/v1/categories) and still be checked against the API's types.
 */
type CategoryPathItem<Suffix extends string> = paths[Extract<keyof paths, `/api/v1/${KnownCategory}${Suffix}`>];

type PathParameters<P> = P extends { path: infer Params } ? (Params extends object ? Params : object) : object;

/** An operation with `{category}` added to its path parameters. */
type WithCategory<Operation> = Operation extends { parameters: infer P }
  ? Omit<Operation, 'parameters'> & {
      parameters: Omit<P, 'path'> & { path: { category: string } & PathParameters<P> };
    }
  : never;

type Methods = 'get' | 'put' | 'post' | 'delete' | 'patch';

type GenericPathItem<Suffix extends string> = {
  parameters: { query?: never; header?: never; path: { category: string }; cookie?: never };
} & {
  [M in Methods]: CategoryPathItem<Suffix>[M] extends never | undefined ? never : WithCategory<NonNullable<CategoryPathItem<Suffix>[M]>>;
};

export interface CategoryPaths {
  '/api/v1/{category}': GenericPathItem<''>;
  '/api/v1/{category}/{id}': GenericPathItem<'/{id}'>;
  '/api/v1/{category}/list': GenericPathItem<'/list'>;
  '/api/v1/{category}/list/{item_id}': GenericPathItem<'/list/{item_id}'>;
  '/api/v1/{category}/bulk-status': GenericPathItem<'/bulk-status'>;
  '/api/v1/{category}/bulk-delete': GenericPathItem<'/bulk-delete'>;
  '/api/v1/{category}/{id}/merge': GenericPathItem<'/{id}/merge'>;
  '/api/v1/{category}/list/changes': GenericPathItem<'/list/changes'>;
  '/api/v1/{category}/list/stats': GenericPathItem<'/list/stats'>;
  '/api/v1/{category}/list/export': GenericPathItem<'/list/export'>;
  '/api/v1/{category}/list/imports': GenericPathItem<'/list/imports'>;
  '/api/v1/{category}/list/imports/{id}': GenericPathItem<'/list/imports/{id}'>;
  '/api/v1/{category}/list/{item_id}/history': GenericPathItem<'/list/{item_id}/history'>;
  '/api/v1/{category}/list/{item_id}/plays': GenericPathItem<'/list/{item_id}/plays'>;
  '/api/v1/{category}/list/{item_id}/plays/{play_id}': GenericPathItem<'/list/{item_id}/plays/{play_id}'>;
  '/api/v1/{category}/list/plays': GenericPathItem<'/list/plays'>;
  '/api/v1/{category}/providers/search': GenericPathItem<'/providers/search'>;
  '/api/v1/{category}/providers/import': GenericPathItem<'/providers/import'>;
  '/api/v1/{category}/{id}/refresh': GenericPathItem<'/{id}/refresh'>;
}
