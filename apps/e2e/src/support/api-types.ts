/**
 * The public API's response bodies as the suite reads them (docs/api.md). Only for the compiler: the shapes
 * are checked for real against the published OpenAPI document on every response.
 */

export interface ErrorPayload {
  error: string;
  status: number;
  timestamp: string;
  code: string;
  request_id: string;
  details?: Array<{ path: string; message: string }>;
  existing_id?: string;
}

export interface User {
  id: string;
  username: string;
  email: string;
  created_at: string;
  updated_at: string;
}

export interface LoginResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  user: User;
}

export interface Message {
  message: string;
}

export interface PasswordChanged extends Message {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

export interface TokenMetadata {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
}

export interface CreatedToken extends TokenMetadata {
  token: string;
}

export interface Category {
  id: string;
  name: string;
  display_name: string;
  description: string;
  endpoint: string;
  icon: string;
}

export interface CatalogEntry {
  id: string;
  title: string;
  year: number | null;
  description: string | null;
  genres: string[];
  created_by: string | null;
  created_at: string;
  updated_at: string;
  /** The category's own fields (runtime_minutes, seasons, authors...). */
  [field: string]: unknown;
}

export interface Page<T> {
  data: T[];
  page: number;
  limit: number;
  total: number;
  total_pages: number;
}

export type ListStatus = 'watching' | 'completed' | 'on_hold' | 'dropped' | 'plan_to_watch';

export interface ListEntry {
  item_id: string;
  item: { id: string; title: string; year: number | null };
  status: ListStatus;
  score: number | null;
  progress: number | null;
  notes: string | null;
  started_at: string | null;
  finished_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface BulkStatusResult {
  updated: number;
  not_found: string[];
}

export interface BulkDeleteResult {
  deleted: number;
  not_found: string[];
}

export interface ProbeBody {
  status: string;
  database?: string;
  error?: string;
}
