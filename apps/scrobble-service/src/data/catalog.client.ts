import { INTERNAL_PATHS } from '@mt/contracts';
import { titleKey } from '@mt/domain';
import { INTERNAL_SECRET_HEADER, signIdentity, type Identity } from '@mt/identity';
import type { RouteTable } from '@mt/registry-client';
import { randomUUID } from 'node:crypto';
import { CatalogRefused, CatalogUnavailable, ProviderUnavailable, type CatalogMatch, type CatalogPort, type ScrobbleCategory } from '../domain/ports';
import type { MediaIds } from '../domain/scrobble-event';

const REQUEST_TIMEOUT_MS = 5000;
/** Adding a show from its provider reads every season and writes them: longer than a lookup. */
const PROVIDER_MATCH_TIMEOUT_MS = 30_000;
/** Candidates read per title search: an exact folded title is among the first hits when it exists. */
const TITLE_CANDIDATES = 20;

interface Page {
  data: Array<{ id: string; title: string; year: number | null }>;
}

/**
 * The catalog instances, reached directly as the gateway reaches them: a live instance of the category from
 * the registry's route table, public lookups anonymously, list writes under the hook owner's identity signed
 * with the internal secret (only that user's list can be written), internal endpoints with the secret.
 */
export class CatalogClient implements CatalogPort {
  constructor(private readonly deps: { routeTable: RouteTable; internalSecret: string }) {}

  private async call(category: ScrobbleCategory, path: string, init: { method?: string; body?: unknown; identity?: Identity; internal?: boolean; timeoutMs?: number } = {}): Promise<{ status: number; body: unknown }> {
    const instance = this.deps.routeTable.pickInstance(category);
    if (!instance) throw new CatalogUnavailable(`no live instance of ${category}`);
    const requestId = randomUUID();
    const headers: Record<string, string> = { accept: 'application/json', 'x-request-id': requestId };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (init.internal) headers[INTERNAL_SECRET_HEADER] = this.deps.internalSecret;
    if (init.identity) Object.assign(headers, signIdentity(init.identity, requestId, this.deps.internalSecret));
    let response: Response;
    try {
      response = await fetch(`${instance.base_url.replace(/\/+$/, '')}${path}`, {
        method: init.method ?? 'GET',
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(init.timeoutMs ?? REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new CatalogUnavailable(`${category} could not be reached (${(error as Error).message})`);
    }
    if (response.status >= 500) {
      await response.body?.cancel();
      // The catalog's only 502 is `provider_unavailable`: its metadata provider failed, not the catalog.
      if (response.status === 502) throw new ProviderUnavailable(`${category}'s metadata provider is unavailable`);
      throw new CatalogUnavailable(`${category} answered ${response.status}`);
    }
    const body = await response.json().catch(() => null);
    if (response.status >= 400 && response.status !== 404) throw new CatalogRefused(`${category} refused ${init.method ?? 'GET'} ${path.split('?')[0]}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
    return { status: response.status, body };
  }

  private ownerIdentity(userId: string): Identity {
    // The hook acts for its owner with list rights only; the catalog sees the owner's id as it would through the gateway.
    return { userId, authType: 'pat', scopes: ['list:read', 'list:write'], tokenId: 'scrobble-service' };
  }

  async findByExternalId(category: ScrobbleCategory, key: string, value: string): Promise<string | null> {
    const { status, body } = await this.call(category, `/api/v1/${category}?external_id=${encodeURIComponent(`${key}:${value}`)}`);
    return status === 200 ? ((body as Page).data[0]?.id ?? null) : null;
  }

  async findByTitle(category: ScrobbleCategory, title: string, year: number | null): Promise<string | null> {
    const query = new URLSearchParams({ q: title.slice(0, 200), limit: String(TITLE_CANDIDATES) });
    if (year !== null && category === 'movies') query.set('year', String(year));
    const { status, body } = await this.call(category, `/api/v1/${category}?${query}`);
    if (status !== 200) return null;
    const wanted = titleKey(title);
    const same = (body as Page).data.filter((entry) => titleKey(entry.title) === wanted);
    // A show's year is ignored, but breaks a tie between shows of the same title when the event has one.
    return (same.find((entry) => year !== null && entry.year === year) ?? same[0])?.id ?? null;
  }

  async findEpisode(query: { externalId: string } | { showId: string; season: number; number: number }): Promise<{ itemId: string; episodeId: string } | null> {
    const params = 'externalId' in query ? new URLSearchParams({ external_id: query.externalId }) : new URLSearchParams({ show_id: query.showId, season: String(query.season), number: String(query.number) });
    const { status, body } = await this.call('tvshows', `${INTERNAL_PATHS.episodeLookup('tvshows')}?${params}`, { internal: true });
    if (status !== 200) return null;
    const found = body as { item_id: string; episode: { id: string } };
    return { itemId: found.item_id, episodeId: found.episode.id };
  }

  async addFromProvider(userId: string, category: ScrobbleCategory, work: { title: string | null; year: number | null; externalIds: MediaIds }): Promise<string | null> {
    const { body } = await this.call(category, INTERNAL_PATHS.providerMatch(category), {
      method: 'POST',
      internal: true,
      identity: this.ownerIdentity(userId),
      body: { title: work.title?.slice(0, 300) || null, year: work.year, external_ids: work.externalIds },
      timeoutMs: PROVIDER_MATCH_TIMEOUT_MS,
    });
    return (body as { item_id?: string | null } | null)?.item_id ?? null;
  }

  async recordPlay(userId: string, match: CatalogMatch, play: { watchedAt: Date; sourceEventId: string; source: string }) {
    const { status, body } = await this.call(match.category, INTERNAL_PATHS.listPlays(match.category, match.itemId), {
      method: 'POST',
      internal: true,
      identity: this.ownerIdentity(userId),
      body: { watched_at: play.watchedAt.toISOString(), source_event_id: play.sourceEventId, source: play.source, ...(match.episode ? { episodes: [match.episode] } : {}) },
    });
    if (status === 404) return null;
    const added = (body as { added?: Array<{ id: string }> }).added ?? [];
    return { playId: added[0]?.id ?? null };
  }

  async startWatching(userId: string, match: CatalogMatch, source: string): Promise<true | null> {
    const { status } = await this.call(match.category, INTERNAL_PATHS.listPlays(match.category, match.itemId), {
      method: 'POST',
      internal: true,
      identity: this.ownerIdentity(userId),
      body: { start_only: true, source },
    });
    return status === 404 ? null : true;
  }
}
