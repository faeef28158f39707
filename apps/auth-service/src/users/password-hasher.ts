import * as argon2 from 'argon2';
import { randomBytes } from 'node:crypto';
import { Semaphore } from '@mt/stores';

export interface Argon2Params {
  memoryCost: number;
  timeCost: number;
  /** Hashes computed at once (default 4, libuv's thread pool); the others wait their turn. */
  concurrency?: number;
}

/**
 * argon2id hashing. The argon2 package runs the work on libuv's thread pool, so a login never
 * blocks the event loop. Parallelism is 1 (OWASP); memory and time come from configuration.
 * At most `concurrency` hashes run at once (configured: every core but one): hashes on every core take the
 * CPU from the event loop (the bench's login storm: bench/README.md "What profiling changed").
 */
export class PasswordHasher {
  private readonly options: argon2.Options;
  private readonly slots: Semaphore;
  private dummyHash?: Promise<string>;

  constructor(params: Argon2Params) {
    this.options = { type: argon2.argon2id, memoryCost: params.memoryCost, timeCost: params.timeCost, parallelism: 1 };
    this.slots = new Semaphore(params.concurrency ?? 4);
  }

  hash(password: string): Promise<string> {
    return this.slots.use(() => argon2.hash(password, this.options));
  }

  /** False for a wrong password and for a hash that is not argon2 at all. */
  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await this.slots.use(() => argon2.verify(hash, password));
    } catch {
      return false;
    }
  }

  /**
   * The same work as a real verification, for a login that names no user: the 401 for an unknown
   * user then takes as long as the one for a wrong password.
   */
  async verifyAgainstDummy(password: string): Promise<false> {
    this.dummyHash ??= this.hash(randomBytes(32).toString('base64url'));
    await this.verify(await this.dummyHash, password);
    return false;
  }

  /** Computes the dummy hash ahead of the first unknown-user login. */
  async warmUp(): Promise<void> {
    this.dummyHash ??= this.hash(randomBytes(32).toString('base64url'));
    await this.dummyHash;
  }

  /** True when `hash` was made with weaker parameters than the configured ones. */
  needsRehash(hash: string): boolean {
    try {
      return argon2.needsRehash(hash, this.options);
    } catch {
      return false;
    }
  }
}
