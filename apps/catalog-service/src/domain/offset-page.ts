import { DEFAULT_LIMIT, type Page } from '@mt/contracts';

/** Offset pages (`page` + `limit`) of the catalog's listings; cursor pages are @mt/pagination's. */
export interface PageWindow {
  page: number;
  limit: number;
  skip: number;
}

export function pageWindow(page = 1, limit = DEFAULT_LIMIT): PageWindow {
  return { page, limit, skip: (page - 1) * limit };
}

export const toPage = <T>(data: T[], window: PageWindow, total: number): Page<T> => ({
  data,
  page: window.page,
  limit: window.limit,
  total,
  total_pages: Math.ceil(total / window.limit),
});
