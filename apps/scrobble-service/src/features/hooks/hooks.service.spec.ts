import type { Hook } from '../../domain/ports';
import type { HookStore } from '../../domain/store-ports';
import { overlapCounter } from '../../../test/overlap';
import { HooksService } from './hooks.service';

describe('creating hooks', () => {
  it("hands one user's concurrent creations to the store one at a time, and different users' at once", async () => {
    const overlap = overlapCounter();
    let created = 0;
    const store = {
      create: (input) => overlap.during(input.userId, () => ({ ...input, id: `h${++created}`, lastEventAt: null }) as Hook),
    } as Partial<HookStore> as HookStore;
    const service = new HooksService({ hooks: store, isLimitReached: () => false });
    const create = (userId: string) => service.create(userId, { server: 'generic', name: 'h' }, 'http://localhost');
    await Promise.all([...Array.from({ length: 6 }, () => create('u1')), create('u2'), create('u3')]);
    expect(overlap.mostPerKey()).toEqual([1, 1, 1]);
    expect(overlap.mostOfAll()).toBe(3);
  });

  it('answers a creation over the limit with 409, and lets the next one of the same user run', async () => {
    let calls = 0;
    const limitReached = new Error('limit');
    const store = {
      create: async (input) => {
        calls++;
        if (calls === 1) throw limitReached;
        return { ...input, id: 'h2', lastEventAt: null } as Hook;
      },
    } as Partial<HookStore> as HookStore;
    const service = new HooksService({ hooks: store, isLimitReached: (error) => error === limitReached });
    const [first, second] = await Promise.allSettled([
      service.create('u1', { server: 'generic', name: 'a' }, 'http://localhost'),
      service.create('u1', { server: 'generic', name: 'b' }, 'http://localhost'),
    ]);
    expect(first).toMatchObject({ status: 'rejected', reason: { status: 409 } });
    expect(second).toMatchObject({ status: 'fulfilled', value: { hook: { id: 'h2' } } });
  });
});
