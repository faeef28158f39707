import { withTimeout } from './with-timeout';

describe('withTimeout', () => {
  it('resolves with the value of a prompt promise', async () => {
    await expect(withTimeout(Promise.resolve(7), 100)).resolves.toBe(7);
  });

  it('rejects naming the operation when it takes too long', async () => {
    await expect(withTimeout(new Promise(() => undefined), 20, 'database ping')).rejects.toThrow('database ping timed out after 20 ms');
  });

  it('passes the original rejection through', async () => {
    await expect(withTimeout(Promise.reject(new Error('refused')), 100)).rejects.toThrow('refused');
  });
});
