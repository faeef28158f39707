import type { Connection } from 'mongoose';
import { isDuplicateKeyError } from '@mt/stores';
import { toObjectId } from '../shared/object-id';
import { adminClaimModel, type AdminClaimDocument, type AdminClaimModel } from './admin-claim.document';

export class AdminClaimsRepository {
  readonly model: AdminClaimModel;

  constructor(connection: Connection) {
    this.model = adminClaimModel(connection);
  }

  ensureIndexes(): Promise<void> {
    return this.model.createIndexes();
  }

  /**
   * Claims `name` for `userId` unless it is claimed already (the primary key decides between racing
   * claims); returns the id of the account that holds the claim afterwards.
   */
  async claim(name: string, userId: string): Promise<string | undefined> {
    try {
      await this.model.create({ _id: name, userId: toObjectId(userId) });
      return userId;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      return this.ownerOf(name);
    }
  }

  async ownerOf(name: string): Promise<string | undefined> {
    const doc = await this.model.findById(name).lean<AdminClaimDocument>();
    return doc?.userId.toHexString();
  }

  async namesOf(userId: string): Promise<string[]> {
    const _id = toObjectId(userId);
    if (!_id) return [];
    const docs = await this.model.find({ userId: _id }, { _id: 1 }).lean<Array<Pick<AdminClaimDocument, '_id'>>>();
    return docs.map((doc) => doc._id);
  }
}
