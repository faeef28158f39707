import { isDuplicateKeyError, retryTransient } from '@mt/stores';
import type { ShardingDeclaration } from '@mt/stores';
import { COLLECTIONS, type ScrobbleDatabase } from './database';

interface PlayGuardDocument {
  hook_id: string;
  user_id: string;
  media_key: string;
  last_play_at: Date;
}

/** Guards by hook: one per (hook, media). */
export const PLAY_GUARD_SHARDING: ShardingDeclaration = { collection: COLLECTIONS.playGuards, shardKey: { hook_id: 1 }, scatterGather: ["an account's deletion (by `user_id`)"] };

/**
 * The last counted play of each item (and episode) per hook: a second play within the window is a
 * duplicate. The claim is one conditional upsert on a unique key, so two deliveries racing each other
 * cannot both count.
 */

export class PlayGuardsRepository {
  constructor(private readonly db: ScrobbleDatabase) {}

  private get guards() {
    return this.db.collection<PlayGuardDocument>(COLLECTIONS.playGuards);
  }

  async ensureIndexes(): Promise<void> {
    await this.guards.createIndex({ hook_id: 1, media_key: 1 }, { unique: true, name: 'hook_media' });
    await this.guards.createIndex({ user_id: 1 }, { name: 'user' });
  }

  /** True when this play counts (no play of the same media through the hook within `windowMs`). */
  async claim(input: { hookId: string; userId: string; mediaKey: string }, now: Date, windowMs: number): Promise<boolean> {
    try {
      await retryTransient(() =>
        this.guards.updateOne(
          { hook_id: input.hookId, media_key: input.mediaKey, last_play_at: { $lte: new Date(now.getTime() - windowMs) } },
          { $set: { last_play_at: now }, $setOnInsert: { user_id: input.userId } },
          { upsert: true },
        ),
      );
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  async deleteUser(userId: string): Promise<void> {
    await this.guards.deleteMany({ user_id: userId });
  }
}
