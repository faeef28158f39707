import type { CatalogMatch, EventStatus, Hook, InboxEntry, ScrobbleCategory, StoredEvent } from './ports';

/** The stores features use (implemented in data/): features never import the driver. */
export interface HookStore {
  create(input: Omit<Hook, 'id' | 'lastEventAt'> & { secretHash: Buffer }, limit: number): Promise<Hook>;
  list(userId: string): Promise<Hook[]>;
  findBySecretHash(hash: Buffer): Promise<{ hook: Hook; storedHash: Buffer } | null>;
  get(hookId: string): Promise<Hook | null>;
  delete(userId: string, hookId: string): Promise<boolean>;
  touch(hookId: string, at: Date): Promise<void>;
  deleteUser(userId: string): Promise<void>;
}

export interface EventStore {
  insert(input: Omit<StoredEvent, 'id' | 'status'> & { deliveryKey: string }): Promise<StoredEvent | null>;
  remove(eventId: string): Promise<void>;
  get(eventId: string): Promise<StoredEvent | null>;
  getMany(userId: string, eventIds: readonly string[]): Promise<StoredEvent[]>;
  finish(eventId: string, status: Exclude<EventStatus, 'pending'>, result?: { itemId?: string; playId?: string | null }): Promise<void>;
  pendingIds(olderThan: Date, limit: number): Promise<string[]>;
  deleteUser(userId: string): Promise<void>;
}

export interface PlayGuardStore {
  claim(input: { hookId: string; userId: string; mediaKey: string }, now: Date, windowMs: number): Promise<boolean>;
  deleteUser(userId: string): Promise<void>;
}

export interface MappingStore {
  find(hookId: string, subjectKey: string): Promise<{ category: ScrobbleCategory; itemId: string } | null>;
  remember(input: { hookId: string; userId: string; subjectKey: string; category: ScrobbleCategory; itemId: string }): Promise<void>;
  deleteUser(userId: string): Promise<void>;
}

export interface InboxStore {
  add(input: Omit<InboxEntry, 'id' | 'firstSeenAt' | 'lastSeenAt' | 'count' | 'eventIds'> & { userId: string; mediaKey: string; eventId: string }, now: Date): Promise<void>;
  list(userId: string, limit: number): Promise<InboxEntry[]>;
  get(userId: string, entryId: string): Promise<InboxEntry | null>;
  removeResolved(entry: InboxEntry): Promise<void>;
  delete(userId: string, entryId: string): Promise<boolean>;
  deleteUser(userId: string): Promise<void>;
}

/** The durable queue between the 202 and the work (BullMQ). */
export interface EventQueue {
  /** Idempotent per event id. */
  enqueue(eventId: string): Promise<void>;
}

/** Per-hook admission: null when admitted, else the seconds until the next window. */
export interface HookRateLimit {
  take(hookId: string): Promise<number | null>;
}

export type { CatalogMatch };
