import { errors } from '@mt/errors';
import type { Id } from '../../domain/ids';
import { tombstoneExpiry } from '../../domain/feed-retention';
import { KeyedMutex } from '@mt/stores';
import type { ListChangesStore } from '../../domain/ports/list-changes-store.port';
import { TransactionContentionError, type AtomicRunner, type Session } from '../../domain/ports/atomic.port';
import { ListOwnerDeletedError, type ListOwnersStore } from '../../domain/ports/list-owners-store.port';

/** The place of one list write in its user's change feed: its sequence number and time. */
export interface ChangeStamp {
  userId: string;
  seq: number;
  at: Date;
  session: Session;
}

export interface ListWritesDeps {
  owners: ListOwnersStore;
  changes: ListChangesStore;
  atomic: AtomicRunner;
  now?: () => Date;
}

/**
 * The one way a user's list is written: every write runs in one transaction with the user's list-owner
 * document (see ListOwnersRepository), so writes of one user are serialised and none can land after the
 * account's deletion was applied; each gets its place (`seq`) in the user's change feed.
 */
export class ListWrites {
  /**
   * A user's writes would conflict on the owner document anyway: queued per user in this instance, they
   * run one after the other instead of failing and retrying (only writes through other instances conflict).
   */
  private readonly writesByUser = new KeyedMutex();

  private readonly now: () => Date;

  constructor(private readonly deps: ListWritesDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * A write of the user's list, all-or-nothing with its owner document (401 once the account is gone) and
   * with its place in the change feed: the work writes entries with the stamp's `seq` and calls deleted()
   * for removals.
   */
  async run<T>(userId: string, work: (session: Session, stamp: ChangeStamp) => Promise<T>): Promise<T> {
    try {
      return await this.writesByUser.use(userId, async () => {
        await this.deps.owners.ensure(userId);
        return this.deps.atomic.run(async (session) => {
          const seq = await this.deps.owners.recordWrite(userId, session);
          return work(session, { userId, seq, at: this.now(), session });
        });
      });
    } catch (error) {
      // The identity was signed before the deletion reached the gateway: like a revoked credential.
      if (error instanceof ListOwnerDeletedError) throw errors.unauthorized('the account no longer exists');
      if (error instanceof TransactionContentionError) {
        throw errors.serviceUnavailable('your list is being changed by too many requests at once; try again');
      }
      throw error;
    }
  }

  /** Records the removal of `itemIds` in the user's change feed, at the write's `seq`. */
  deleted(stamp: ChangeStamp, itemIds: readonly Id[]): Promise<void> {
    return this.deps.changes.recordDeletes(stamp.userId, stamp.seq, itemIds, stamp.at, tombstoneExpiry(stamp.at), stamp.session);
  }
}
