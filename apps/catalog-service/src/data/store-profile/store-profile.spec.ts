import { silentLogger } from '@mt/testing';
import type { mongo } from 'mongoose';
import { ChosenStoreProfile, MongoDbStoreProfile, SortingStoreProfile, WITHOUT_HISTORY } from './store-profile';

/** A collection whose sorted read explains as `plan` (or cannot be explained). */
const probed = (plan: unknown) =>
  ({ find: () => ({ sort: () => ({ limit: () => ({ explain: () => (plan instanceof Error ? Promise.reject(plan) : Promise.resolve(plan)) }) }) }) }) as unknown as mongo.Collection;

const noSamples = { fields: ['title_key'], loadSample: async () => [], countEntries: async () => 0 };
const sorting = () => new SortingStoreProfile({ logger: silentLogger(), catalog: noSamples, lists: { ...noSamples, loadSample: async () => [], countEntries: async () => 0 } });

describe('store profile', () => {
  it('is plain MongoDB until start-up chooses', () => {
    const profile = new ChosenStoreProfile(sorting);
    expect(profile.name).toBe('mongodb');
    expect(profile.listEntryProjection).toBe(WITHOUT_HISTORY);
  });

  it('takes the profile STORE_PROFILE names without asking the server', async () => {
    const explain = jest.fn();
    const profile = new ChosenStoreProfile(sorting);
    expect(await profile.choose('sorting', { find: explain } as unknown as mongo.Collection)).toBe('sorting');
    expect(explain).not.toHaveBeenCalled();
    expect(profile.current).toBeInstanceOf(SortingStoreProfile);
    expect(profile.listEntryProjection).toBeUndefined();
    profile.stop();
  });

  it('chooses MongoDB on auto when the query plan cannot be read', async () => {
    const profile = new ChosenStoreProfile(sorting);
    expect(await profile.choose('auto', probed(new Error('explain not supported')))).toBe('mongodb');
    expect(profile.current).toBeInstanceOf(MongoDbStoreProfile);
  });

  it('chooses once: a retried start-up keeps the first choice', async () => {
    const profile = new ChosenStoreProfile(sorting);
    await profile.choose('mongodb', probed(null));
    expect(await profile.choose('sorting', probed(null))).toBe('mongodb');
  });

  it('reads a feed page plainly on MongoDB, and by widening windows of sequence numbers when sorting', async () => {
    const upTo: number[] = [];
    // Ten rows, one per sequence number 1..10: a window up to n holds n rows, of which a read returns 5 at most.
    const read = async (n: number) => {
      upTo.push(n);
      return Array.from({ length: Math.min(n, 10, 5) }, (_, i) => i + 1);
    };
    expect(await new MongoDbStoreProfile().feedPage(null, 10, 5, read)).toHaveLength(5);
    expect(upTo).toEqual([10]);
    upTo.length = 0;
    const profile = sorting();
    expect(await profile.feedPage(null, 10, 5, read)).toHaveLength(5);
    profile.stop();
    expect(upTo).toEqual([1, 8]);
  });
});
