import { isTransientConflict, retryTransient, type RetryPolicy } from './transient-conflicts';

const conflict = () => Object.assign(new Error('deadlock detected'), { code: 112 });
const labelled = () =>
  Object.assign(new Error('could not serialize access'), {
    code: 251,
    hasErrorLabel: (label: string) => label === 'TransientTransactionError',
  });
const quick: RetryPolicy = { attempts: 4, baseDelayMs: 1, maxDelayMs: 2 };

describe('isTransientConflict', () => {
  it('recognises WriteConflict (112) and errors labelled TransientTransactionError', () => {
    expect(isTransientConflict(conflict())).toBe(true);
    expect(isTransientConflict(labelled())).toBe(true);
  });

  it('refuses everything else', () => {
    expect(isTransientConflict(Object.assign(new Error('dup'), { code: 11000 }))).toBe(false);
    expect(isTransientConflict(new Error('plain'))).toBe(false);
    expect(isTransientConflict(null)).toBe(false);
    expect(isTransientConflict('112')).toBe(false);
  });
});

describe('retryTransient', () => {
  it('tries again after transient conflicts and returns the first success', async () => {
    let calls = 0;
    const result = await retryTransient(async () => {
      calls++;
      if (calls < 3) throw conflict();
      return 'done';
    }, quick);
    expect(result).toBe('done');
    expect(calls).toBe(3);
  });

  it('gives up after the policy’s number of tries with the last conflict', async () => {
    let calls = 0;
    const failure = retryTransient(async () => {
      calls++;
      throw conflict();
    }, quick);
    await expect(failure).rejects.toMatchObject({ name: 'TransactionContentionError', cause: expect.objectContaining({ message: expect.stringContaining('deadlock detected') }) });
    expect(calls).toBe(4);
  });

  it('does not retry any other failure', async () => {
    let calls = 0;
    const failure = retryTransient(async () => {
      calls++;
      throw Object.assign(new Error('E11000'), { code: 11000 });
    }, quick);
    await expect(failure).rejects.toThrow('E11000');
    expect(calls).toBe(1);
  });
});
