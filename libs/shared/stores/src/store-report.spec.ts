import { connectionFailureReason, redactUrl, unreachableReporter } from './store-report';

describe('redactUrl', () => {
  it('keeps the address and cuts out credentials', () => {
    expect(redactUrl('mongodb://app:s3cret@db.internal:27017/?replicaSet=rs0')).toBe(
      'mongodb://[redacted]@db.internal:27017/?replicaSet=rs0',
    );
    expect(redactUrl('redis://:pw@cache:6379')).toBe('redis://[redacted]@cache:6379');
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });
});

describe('connectionFailureReason', () => {
  it('is the driver message', () => {
    expect(connectionFailureReason(new Error('connect ECONNREFUSED 127.0.0.1:1'))).toBe(
      'connect ECONNREFUSED 127.0.0.1:1',
    );
  });

  it('reads the first cause of an AggregateError without a message (a refused localhost)', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED ::1:6379'), { code: 'ECONNREFUSED' });
    expect(connectionFailureReason(new AggregateError([refused, new Error('other')], ''))).toBe(
      'connect ECONNREFUSED ::1:6379',
    );
  });

  it('falls back to the error code, and never shows credentials', () => {
    expect(connectionFailureReason(Object.assign(new Error(''), { code: 'ETIMEDOUT' }))).toBe('ETIMEDOUT');
    expect(connectionFailureReason(new Error('bad auth for mongodb://u:p@h:1'))).toBe(
      'bad auth for mongodb://[redacted]@h:1',
    );
  });
});

describe('unreachableReporter', () => {
  afterEach(() => jest.useRealTimers());

  it('reports the first failure at once, then at most one line per interval however fast the retries are', () => {
    jest.useFakeTimers({ now: 0 });
    const reports: Array<{ attempt: number; waited_s: number }> = [];
    const report = unreachableReporter((fields) => reports.push(fields), 5000);
    for (let attempt = 1; attempt <= 60; attempt++) {
      report(attempt);
      jest.advanceTimersByTime(250);
    }
    expect(reports).toEqual([
      { attempt: 1, waited_s: 0 },
      { attempt: 21, waited_s: 5 },
      { attempt: 41, waited_s: 10 },
    ]);
  });
});
