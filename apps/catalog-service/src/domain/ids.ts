import { mongo } from 'mongoose';

/**
 * The ids of catalog entries, list entries and import jobs as services hold them. They are MongoDB ObjectIds
 * (the API shows their hex form, validated by the schemas before a service sees it); this is the one place
 * outside the data layer that knows it, so services neither import the driver nor build its values.
 */
export type Id = mongo.ObjectId;

/** The id of a validated 24-hex-digit string. */
export const toId = (hex: string): Id => new mongo.ObjectId(hex);

/** A new id (time-ordered, unique without a round trip to the database). */
export const newId = (): Id => new mongo.ObjectId();
