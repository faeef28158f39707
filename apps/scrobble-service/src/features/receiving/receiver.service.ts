import { errors } from '@mt/errors';
import type { Logger } from '@mt/logging';
import { KeyedMutex } from '@mt/stores';
import { createHash } from 'node:crypto';
import { hashesMatch, hashHookSecret } from '../../domain/hook-secret';
import { mediaKey, subjectKey } from '../../domain/media-key';
import { PARSERS } from '../../domain/parsers';
import type { Hook } from '../../domain/ports';
import { NotServerFormatError, type ScrobbleEvent, type Server } from '../../domain/scrobble-event';
import { decide, DUPLICATE_WINDOW_MS } from '../../domain/scrobble-rules';
import type { EventQueue, EventStore, HookRateLimit, HookStore, PlayGuardStore } from '../../domain/store-ports';

/** `last_event_at` is kept to the second: a hook's burst of events writes it once a second, not once per event. */
const LAST_EVENT_RESOLUTION_MS = 1000;

export type ReceiveOutcome = { outcome: 'ignored'; reason: string } | { outcome: 'duplicate'; reason: string } | { outcome: 'queued' };

export interface ReceiverDeps {
  hooks: HookStore;
  events: EventStore;
  guards: PlayGuardStore;
  queue: EventQueue;
  rateLimit: HookRateLimit;
  logger: Logger;
  now?: () => Date;
}

/**
 * The webhook receiver: authenticate the hook by its secret, admit it (rate limit), parse the server's body,
 * apply the rules that need no catalog, and store what remains before answering 202 — the matching and the
 * recording run from the durable queue (features/processing).
 */
export class ReceiverService {
  private readonly admitting = new KeyedMutex();

  constructor(private readonly deps: ReceiverDeps) {}

  /** The hook the secret belongs to; any mismatch is the same 401 (the secret is never named). */
  async authenticate(server: Server, secret: string): Promise<Hook> {
    // Hashed and looked up whatever its shape, so that a malformed secret costs what a wrong one does.
    const presented = hashHookSecret(secret);
    const found = await this.deps.hooks.findBySecretHash(presented);
    if (!found || !hashesMatch(found.storedHash, presented) || found.hook.server !== server) throw errors.unauthorized('unknown or revoked hook');
    return found.hook;
  }

  async receive(hook: Hook, readBody: () => Promise<string>): Promise<ReceiveOutcome> {
    const retryAfter = await this.deps.rateLimit.take(hook.id);
    if (retryAfter !== null) throw errors.rateLimited(retryAfter, 'this hook sent too many events: slow down');
    const body = await readBody();
    const event = parseBody(hook.server, body);
    const now = this.deps.now?.() ?? new Date();
    // The hook's "last event" is only shown to its owner: failing to record it must not refuse an event already stored.
    const recent = hook.lastEventAt !== null && now.getTime() - hook.lastEventAt.getTime() < LAST_EVENT_RESOLUTION_MS;
    const touched = recent ? undefined : this.deps.hooks.touch(hook.id, now).catch((error: unknown) => this.deps.logger.warn({ hook_id: hook.id, err: error }, 'hook last event time not recorded'));
    try {
      // Deliveries of one media through one hook take turns in this process: a repeated delivery and a second
      // play race on the same unique keys (delivery, play guard), and racing inserts of one unique key make the
      // store wait on, or deadlock with, each other. The unique indexes still decide between instances.
      const media = mediaKey(event);
      return await this.admitting.use(`${hook.id}\n${media}`, () => this.admit(hook, event, media, body, now));
    } finally {
      await touched;
    }
  }

  private async admit(hook: Hook, event: ScrobbleEvent, media: string, body: string, now: Date): Promise<ReceiveOutcome> {
    const decision = decide(event, hook);
    if (decision.action === 'ignore') return { outcome: 'ignored', reason: decision.reason };
    const stored = await this.deps.events.insert({
      hookId: hook.id,
      userId: hook.userId,
      server: hook.server,
      action: decision.action,
      event,
      mediaKey: media,
      subjectKey: subjectKey(event),
      receivedAt: now,
      deliveryKey: event.eventId ? `id:${event.eventId}` : `sha256:${createHash('sha256').update(body).digest('base64url')}`,
    });
    if (!stored) return { outcome: 'duplicate', reason: 'this delivery was received before' };
    if (decision.action === 'play' && !(await this.deps.guards.claim({ hookId: hook.id, userId: hook.userId, mediaKey: stored.mediaKey }, now, DUPLICATE_WINDOW_MS))) {
      await this.deps.events.remove(stored.id);
      return { outcome: 'duplicate', reason: 'played through this hook less than 6 hours ago' };
    }
    // Stored: from here a lost enqueue only delays the event (the pending sweep queues it again).
    await this.deps.queue.enqueue(stored.id).catch((error: unknown) => this.deps.logger.warn({ event_id: stored.id, reason: (error as Error).message }, 'scrobble event not queued yet; the sweep will'));
    return { outcome: 'queued' };
  }
}

function parseBody(server: Server, body: string): ScrobbleEvent {
  try {
    return PARSERS[server](body);
  } catch (error) {
    if (error instanceof NotServerFormatError) throw errors.validation(error.message);
    throw error;
  }
}
