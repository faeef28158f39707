import { errors } from '@mt/errors';
import { KeyedMutex } from '@mt/stores';
import { hashHookSecret, newHookSecret } from '../../domain/hook-secret';
import type { Hook } from '../../domain/ports';
import type { Server } from '../../domain/scrobble-event';
import type { HookStore } from '../../domain/store-ports';

/** docs/api.md "Scrobbling from media servers": at most this many hooks per user. */
export const MAX_HOOKS_PER_USER = 20;
export const DEFAULT_THRESHOLD = 90;

export interface CreateHookInput {
  server: Server;
  name: string;
  usernames?: string[];
  threshold?: number;
}

/** The receiver's path for a server and secret, under the public base URL. */
export const hookUrl = (baseUrl: string, server: Server, secret: string): string => `${baseUrl.replace(/\/+$/, '')}/api/v1/scrobble/${server}/${secret}`;

export class HooksService {
  private readonly creating = new KeyedMutex();

  constructor(private readonly deps: { hooks: HookStore; isLimitReached: (error: unknown) => boolean; now?: () => Date }) {}

  /** Creates a hook; its secret exists only in the returned URL (the store keeps its hash). */
  async create(userId: string, input: CreateHookInput, baseUrl: string): Promise<{ hook: Hook; url: string }> {
    const secret = newHookSecret();
    const usernames = [...new Set((input.usernames ?? []).map((name) => name.trim()).filter(Boolean))];
    try {
      // One user's creations take turns in this process: racing inserts of one unique key (a slot) make the
      // store wait on, or deadlock with, each other. The unique (user, slot) index still decides between instances.
      const hook = await this.creating.use(userId, () =>
        this.deps.hooks.create(
          { userId, server: input.server, name: input.name, usernames, threshold: input.threshold ?? DEFAULT_THRESHOLD, createdAt: this.deps.now?.() ?? new Date(), secretHash: hashHookSecret(secret) },
          MAX_HOOKS_PER_USER,
        ),
      );
      return { hook, url: hookUrl(baseUrl, input.server, secret) };
    } catch (error) {
      if (this.deps.isLimitReached(error)) throw errors.conflict(`at most ${MAX_HOOKS_PER_USER} hooks per user: delete one first`);
      throw error;
    }
  }

  list(userId: string): Promise<Hook[]> {
    return this.deps.hooks.list(userId);
  }

  async delete(userId: string, hookId: string): Promise<void> {
    if (!(await this.deps.hooks.delete(userId, hookId))) throw errors.notFound('hook not found');
  }
}
