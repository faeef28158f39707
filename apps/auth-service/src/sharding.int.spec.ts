import { databaseShardingProblems } from '@mt/stores';
import { startAuthHarness, type AuthHarness } from '../test/auth-harness';
import { AUTH_SHARDING } from './sharding';

describe('sharding declarations of the auth service', () => {
  let h: AuthHarness;

  beforeAll(async () => {
    h = await startAuthHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  it("keeps every started auth collection's indexes compatible with its declaration, and declares each", async () => {
    expect(await databaseShardingProblems(h.connection.db!, AUTH_SHARDING)).toEqual([]);
  });
});
