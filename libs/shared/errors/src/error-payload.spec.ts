import { buildErrorPayload } from './error-payload';

const ISO_WITH_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('buildErrorPayload', () => {
  it('has error, status, timestamp (ISO with ms), code and request_id, and no details unless given', () => {
    const payload = buildErrorPayload({ message: 'not found', status: 404, code: 'not_found', requestId: 'r-1' });
    expect(Object.keys(payload).sort()).toEqual(['code', 'error', 'request_id', 'status', 'timestamp']);
    expect(payload).toMatchObject({ error: 'not found', status: 404, code: 'not_found', request_id: 'r-1' });
    expect(payload.timestamp).toMatch(ISO_WITH_MS);
    expect(Math.abs(Date.parse(payload.timestamp) - Date.now())).toBeLessThan(5000);
  });

  it('lists details when given', () => {
    const details = [{ path: 'title', message: 'is required' }];
    expect(buildErrorPayload({ message: 'm', status: 400, code: 'validation_failed', requestId: 'r', details }).details).toEqual(details);
  });

  it('adds documented extra fields but never lets them replace the standard ones', () => {
    const payload = buildErrorPayload({
      message: 'duplicate',
      status: 409,
      code: 'conflict',
      requestId: 'r',
      extra: { existing_id: 'abc', status: 200, error: 'spoofed' },
    });
    expect(payload).toMatchObject({ existing_id: 'abc', status: 409, error: 'duplicate', code: 'conflict' });
  });
});
