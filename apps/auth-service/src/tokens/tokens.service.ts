import { errors } from '@mt/errors';
import type { Identity } from '@mt/identity';
import { randomInt } from 'node:crypto';
import { KeyedMutex } from '@mt/stores';
import { DEFAULT_PAT_SCOPES, generatePat, hashPat, patDisplayPrefix, type Scope, scopesForRole } from '@mt/tokens';
import type { OutboxRelay } from '../outbox/outbox-relay';
import type { OutboxRepository } from '../outbox/outbox.repository';
import { requireExistingUser } from '../users/require-user';
import type { UsersRepository } from '../users/users.repository';
import { TokenNameTaken, TokenSlotTaken, type TokenRecord, type TokensRepository } from './tokens.repository';
import { DEFAULT_TOKEN_DAYS, MAX_ACTIVE_TOKENS } from './tokens.schemas';

const DAY_MS = 24 * 3600 * 1000;
const SLOT_ATTEMPTS = 10;

export interface CreatedToken {
  record: TokenRecord;
  /** The secret, returned once and never stored. */
  token: string;
}

const tooManyTokens = () => errors.conflict(`at most ${MAX_ACTIVE_TOKENS} active tokens per user; revoke one first`);

/** Personal access tokens: create, list, revoke (docs/api.md "Personal access tokens"). */
export class TokensService {
  private readonly creating = new KeyedMutex();

  constructor(
    private readonly tokens: TokensRepository,
    private readonly users: UsersRepository,
    private readonly outbox: OutboxRepository,
    private readonly relay: OutboxRelay,
  ) {}

  async list(userId: string): Promise<TokenRecord[]> {
    await requireExistingUser(this.users, userId);
    return this.tokens.listActive(userId, new Date());
  }

  async create(identity: Identity, input: { name: string; scopes?: Scope[]; expires_in_days?: number }): Promise<CreatedToken> {
    const userId = identity.userId;
    const user = await requireExistingUser(this.users, userId);
    const scopes = input.scopes ?? [...DEFAULT_PAT_SCOPES];
    // catalog:moderate only for a moderator or admin, as the role is stored now (not as a credential remembers it).
    const beyondRole = scopes.find((scope) => !scopesForRole(user.role).includes(scope));
    if (beyondRole) throw errors.forbidden(`the '${beyondRole}' scope can only be granted to a moderator or admin`);
    // A JWT holds every scope; a PAT may only hand out what it holds itself.
    const missing = scopes.find((scope) => !identity.scopes.includes(scope));
    if (missing) throw errors.forbidden(`token lacks the '${missing}' scope it would grant`);

    const now = new Date();
    // Expired tokens give back their name and their slot first.
    await this.tokens.deactivateExpired(userId, now);
    const token = generatePat();
    const fields = {
      userId,
      name: input.name,
      tokenHash: hashPat(token),
      prefix: patDisplayPrefix(token),
      scopes,
      createdAt: now,
      expiresAt: new Date(now.getTime() + (input.expires_in_days ?? DEFAULT_TOKEN_DAYS) * DAY_MS),
    };
    // Creations of one user's tokens take turns in this process: racing inserts of one name or slot deadlock
    // with each other on servers built on PostgreSQL (reported as WriteConflict, retried by the repository).
    return this.creating.use(userId, () => this.claimSlot(userId, fields, token));
  }

  /** A free slot is claimed through the unique index; a creation on another instance that took it first means: pick again. */
  private async claimSlot(userId: string, fields: Omit<TokenRecord, 'id' | 'lastUsedAt'>, token: string): Promise<CreatedToken> {
    for (let attempt = 0; attempt < SLOT_ATTEMPTS; attempt++) {
      const used = new Set(await this.tokens.usedSlots(userId));
      const free = Array.from({ length: MAX_ACTIVE_TOKENS }, (_, slot) => slot).filter((slot) => !used.has(slot));
      const slot = free[free.length ? randomInt(free.length) : 0];
      if (slot === undefined) throw tooManyTokens();
      try {
        return { record: await this.tokens.insert({ ...fields, slot }), token };
      } catch (error) {
        if (error instanceof TokenNameTaken) throw errors.conflict('a token with this name already exists');
        if (!(error instanceof TokenSlotTaken)) throw error;
      }
    }
    // Only reachable when many creations race for the very last slots.
    throw tooManyTokens();
  }

  /** 404 for an unknown id, another user's token, or one already revoked or expired. */
  async revoke(userId: string, tokenId: string): Promise<void> {
    await requireExistingUser(this.users, userId);
    const now = new Date();
    const token = await this.tokens.findActiveOfUser(userId, tokenId, now);
    if (!token) throw errors.notFound('token not found');
    const entry = await this.outbox.add({ kind: 'pat-revoked', userId, tokenHashes: [token.tokenHash] });
    if (!(await this.tokens.revoke(token.id, now))) throw errors.notFound('token not found');
    await this.relay.deliverNow(entry);
  }
}
