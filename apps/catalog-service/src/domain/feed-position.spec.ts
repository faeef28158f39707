import { mongo } from 'mongoose';
import { decodeFeedPosition, encodeFeedPosition } from './feed-position';

describe('feed positions', () => {
  it('decodes what it encodes, with and without an item', () => {
    const itemId = new mongo.ObjectId();
    const at = new Date('2026-01-02T03:04:05.678Z');
    expect(decodeFeedPosition(encodeFeedPosition({ seq: 42, itemId, at }))).toEqual({ seq: 42, itemId, at });
    expect(decodeFeedPosition(encodeFeedPosition({ seq: 0, itemId: null, at }))).toEqual({ seq: 0, itemId: null, at });
  });

  it('refuses text it did not issue', () => {
    const forged = (text: string) => Buffer.from(text).toString('base64url');
    for (const bad of ['', 'not base64!', 'x'.repeat(200), forged('f2:1:zz:5'), forged('f3:1::5'), forged('f2:-1::5'), forged('f2:1::'), forged('f2:1::5:6'), forged('f1:1:zz:5')])
      expect(decodeFeedPosition(bad)).toBeNull();
  });

  it('tells a position of the previous format (upserts only in list_changes) apart, to be answered as expired', () => {
    expect(decodeFeedPosition(Buffer.from(`f1:42:${new mongo.ObjectId().toHexString()}:1767322800000`).toString('base64url'))).toBe('retired');
  });
});
