import { isObjectIdHex } from '@mt/validation';
import { Types } from 'mongoose';

/** Ids that come from signed identity headers or stored records: anything not an ObjectId matches nothing. */
export const toObjectId = (id: string): Types.ObjectId | undefined =>
  isObjectIdHex(id) ? new Types.ObjectId(id) : undefined;
