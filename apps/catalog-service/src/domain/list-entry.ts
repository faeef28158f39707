/** The vocabulary of a personal list: its statuses, its orders, and the inputs its use cases take. */
import { LIST_STATUSES, type ListStatus } from '@mt/domain';

// The statuses are the media domain's (@mt/domain); the list's modules read them here with its other words.
export { LIST_STATUSES, type ListStatus };

export const LIST_SORTS = ['updated_at', 'created_at', 'title', 'score'] as const;
export type ListSort = (typeof LIST_SORTS)[number];
export const MAX_BULK_IDS = 500;

export interface ListEntryFieldsInput {
  status?: ListStatus;
  score?: number | null;
  progress?: number | null;
  notes?: string | null;
  started_at?: string | null;
  finished_at?: string | null;
}

export interface ListQuery {
  status?: ListStatus;
  page?: number;
  cursor?: string;
  limit?: number;
  sort?: ListSort;
  order?: 'asc' | 'desc';
}

/** What a service decides about a new entry; the repository derives the rest of the document. */
export interface NewListEntryFields {
  status: ListStatus;
  score: number | null;
  progress: number | null;
  notes: string | null;
  started_at: string | null;
  finished_at: string | null;
}
