import { redactPath } from './secret-paths';

describe('redactPath', () => {
  it("hides a scrobble hook's secret, whatever follows it or how the path is written", () => {
    expect(redactPath('/api/v1/scrobble/plex/s3cr3t-Value_x')).toBe('/api/v1/scrobble/plex/[redacted]');
    expect(redactPath('/api/v1/scrobble/jellyfin/s3cr3t/extra?x=1')).toBe('/api/v1/scrobble/jellyfin/[redacted]/extra?x=1');
    expect(redactPath('/API/V1/Scrobble/%70lex/s3cr3t')).toBe('/API/V1/Scrobble/%70lex/[redacted]');
    expect(redactPath('//api/v1//scrobble/emby//s3cr3t')).toBe('//api/v1//scrobble/emby//[redacted]');
  });

  it('keeps the ids of the hook and inbox routes and every other path', () => {
    for (const path of ['/api/v1/scrobble/hooks/65f1c0ffee0000000000abcd', '/api/v1/scrobble/unmatched/65f1c0ffee0000000000abcd/resolve', '/api/v1/scrobble/hooks', '/api/v1/movies/list/abc']) {
      expect(redactPath(path)).toBe(path);
    }
  });
});
