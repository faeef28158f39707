import type { ScrobbleCategory } from '../domain/ports';
import { COLLECTIONS, type ScrobbleDatabase } from './database';

interface MappingDocument {
  hook_id: string;
  user_id: string;
  /** A movie, or an episode's show (domain/media-key.ts). */
  subject_key: string;
  category: ScrobbleCategory;
  item_id: string;
}

/** What the owner chose when resolving an inbox entry, remembered for that hook's later events. */
export class MappingsRepository {
  constructor(private readonly db: ScrobbleDatabase) {}

  private get mappings() {
    return this.db.collection<MappingDocument>(COLLECTIONS.mappings);
  }

  async ensureIndexes(): Promise<void> {
    await this.mappings.createIndex({ hook_id: 1, subject_key: 1 }, { unique: true, name: 'hook_subject' });
    await this.mappings.createIndex({ user_id: 1 }, { name: 'user' });
  }

  async find(hookId: string, subjectKey: string): Promise<{ category: ScrobbleCategory; itemId: string } | null> {
    const doc = await this.mappings.findOne({ hook_id: hookId, subject_key: subjectKey });
    return doc ? { category: doc.category, itemId: doc.item_id } : null;
  }

  async remember(input: { hookId: string; userId: string; subjectKey: string; category: ScrobbleCategory; itemId: string }): Promise<void> {
    await this.mappings.updateOne(
      { hook_id: input.hookId, subject_key: input.subjectKey },
      { $set: { category: input.category, item_id: input.itemId, user_id: input.userId } },
      { upsert: true },
    );
  }

  async deleteUser(userId: string): Promise<void> {
    await this.mappings.deleteMany({ user_id: userId });
  }
}
