import { call } from './route-call';
import type { WebApi } from './web-api';

/** The media servers a hook receives from (docs/api.md "Scrobbling from media servers"). */
export const SERVERS = ['jellyfin', 'plex', 'emby', 'generic'] as const;
export type Server = (typeof SERVERS)[number];

export interface Hook {
  id: string;
  server: Server;
  name: string;
  usernames: string[];
  threshold: number;
  created_at: string;
  last_event_at: string | null;
}

/** A hook as created: `url` holds its secret and is given only in this answer. */
export type CreatedHook = Hook & { url: string };

/** An event no catalog entry matched, waiting for the person to say what it was. */
export interface InboxEntry {
  id: string;
  hook_id: string;
  server: Server;
  category: 'movies' | 'tvshows';
  title: string | null;
  year: number | null;
  season: number | null;
  number: number | null;
  external_ids: Record<string, string | undefined>;
  first_seen_at: string;
  last_seen_at: string;
  count: number;
}

const BASE = '/api/v1/scrobble';

export const listHooks = (api: WebApi, signal?: AbortSignal) => call<Hook[]>(api, 'GET', `${BASE}/hooks`, { signal });

export const createHook = (api: WebApi, body: { server: Server; name: string; usernames?: string[]; threshold?: number }) =>
  call<CreatedHook>(api, 'POST', `${BASE}/hooks`, { body });

export const deleteHook = (api: WebApi, id: string) => call<unknown>(api, 'DELETE', `${BASE}/hooks/${encodeURIComponent(id)}`);

export const listInbox = (api: WebApi, signal?: AbortSignal) => call<InboxEntry[]>(api, 'GET', `${BASE}/unmatched`, { signal });

export const resolveInboxEntry = (api: WebApi, id: string, itemId: string) =>
  call<{ recorded: number }>(api, 'POST', `${BASE}/unmatched/${encodeURIComponent(id)}/resolve`, { body: { item_id: itemId } });

export const dismissInboxEntry = (api: WebApi, id: string) => call<unknown>(api, 'DELETE', `${BASE}/unmatched/${encodeURIComponent(id)}`);
