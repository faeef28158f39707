import { ApiClient, waitRetryAfter, type Scope } from '@mt/api-client';
import { Settings, type StoredCredential } from './config/settings';
import { authError, usageError } from './errors';
import type { Io } from './io';
import { Output } from './output/output';
import { canPrompt, promptSecret } from './prompt';
import { readAllStdin } from './io';

export const DEFAULT_URL = 'http://127.0.0.1:8080';
const DEFAULT_MAX_WAIT_SECONDS = 60;
const REQUEST_TIMEOUT_MS = 30_000;

/** The options every command takes (program-level, accepted before or after the command). */
export interface GlobalOptions {
  url?: string;
  json?: boolean;
  color: boolean;
  maxWait?: string;
}

/** `https://host:port/base` without a trailing slash, query or fragment: the key credentials are stored under. */
export function normaliseUrl(text: string, from: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw usageError(`${from}: not a URL: ${text}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usageError(`${from}: only http and https URLs are supported`);
  if (url.username || url.password) throw usageError(`${from}: a URL must not carry credentials`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * What one command runs with: the server (--url, else MT_URL, else the one last logged in to, else
 * http://127.0.0.1:8080), the credential (MT_TOKEN, else the token `mt login` stored for that server: a stored
 * token is only ever sent to the server it was created on), the output, and API clients.
 */
export class Session {
  readonly url: string;
  readonly settings: Settings;
  readonly output: Output;
  readonly maxWaitSeconds: number;
  /** MT_TOKEN: used instead of any stored credential (CI, scripts). */
  readonly envToken: string | undefined;

  constructor(
    readonly io: Io,
    options: GlobalOptions,
  ) {
    this.output = new Output(io, { json: Boolean(options.json), colour: options.color });
    this.settings = new Settings(io.env);
    const given = options.url ?? (io.env['MT_URL'] || undefined);
    this.url = given ? normaliseUrl(given, options.url ? '--url' : 'MT_URL') : (this.settings.defaultUrl() ?? DEFAULT_URL);
    this.envToken = io.env['MT_TOKEN']?.trim() || undefined;
    const maxWait = options.maxWait ?? io.env['MT_MAX_WAIT'];
    if (maxWait !== undefined && !/^\d+$/.test(maxWait)) throw usageError('--max-wait / MT_MAX_WAIT must be a whole number of seconds');
    this.maxWaitSeconds = maxWait === undefined ? DEFAULT_MAX_WAIT_SECONDS : Number(maxWait);
    if (this.settings.credentialsExposed()) {
      this.output.warn(`${this.settings.credentialsFile} can be read by other users: run chmod 600 on it`);
    }
  }

  /** The credential `mt login` stored for this server (undefined with MT_TOKEN, which takes precedence). */
  storedCredential(): StoredCredential | undefined {
    return this.envToken ? undefined : this.settings.credential(this.url);
  }

  /** The bearer token of this command, if any. */
  token(): string | undefined {
    return this.envToken ?? this.settings.credential(this.url)?.token;
  }

  /** Fails with the auth exit code when there is no credential at all. */
  requireToken(): string {
    const token = this.token();
    if (!token) throw authError(`not logged in to ${this.url}`, 'run `mt login` (or set MT_TOKEN)');
    return token;
  }

  /**
   * A client sending `token` (default: this command's credential; `null`: none). `timeoutMs` bounds each
   * request, its body included (default 30 s; a download of a whole list gets longer).
   */
  api(token: string | null | undefined = this.token(), options: { timeoutMs?: number } = {}): ApiClient {
    const host = new URL(this.url).host;
    return new ApiClient({
      baseUrl: this.url,
      token: token ?? undefined,
      timeoutMs: options.timeoutMs ?? REQUEST_TIMEOUT_MS,
      fetch: this.io.env['MT_DEBUG'] ? this.debugFetch() : undefined,
      onRateLimited: waitRetryAfter({
        maxWaitSeconds: this.maxWaitSeconds,
        maxAttempts: 3,
        onWait: (seconds, limited) =>
          this.output.notice(`rate limited by ${host}: waiting ${seconds} s before trying again (attempt ${limited.attempt} of 3)`),
      }),
    });
  }

  /**
   * A client with the `account` scope (token management, revocation): the stored token when it has that
   * scope, else a short-lived login with the password (from --password-stdin, or asked on the terminal). The
   * JWT this gets is used for this command only and never stored.
   */
  async accountApi(options: { passwordStdin?: boolean; username?: string; why: string; hint?: string }): Promise<ApiClient> {
    const stored = this.storedCredential();
    if (!options.passwordStdin && (this.envToken || hasScope(stored?.scopes, 'account'))) return this.api();
    const username = options.username ?? stored?.user.username;
    if (!username) {
      throw authError(`${options.why} needs the account scope, which MT_TOKEN may not have`, 'pass --username and --password-stdin, or use a token with the account scope');
    }
    let password: string;
    if (options.passwordStdin) password = stripNewline(await readAllStdin(this.io));
    else if (canPrompt(this.io)) {
      this.output.notice(`${options.why} needs the account scope, which the stored token does not have.`);
      password = await promptSecret(this.io, `Password for ${username}: `);
    } else {
      throw authError(
        `${options.why} needs the account scope, which the stored token does not have`,
        `run it on a terminal to enter your password, or pass --password-stdin${options.hint ?? ''}`,
      );
    }
    const login = await this.api(null).login({ username, password });
    return this.api(login.access_token);
  }

  private debugFetch(): typeof fetch {
    // Method, URL, status and request id only: headers (the credential) are never printed.
    return async (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      const started = Date.now();
      this.io.stderr.write(`> ${request.method} ${request.url}\n`);
      const response = await fetch(request);
      const id = response.headers.get('x-request-id');
      this.io.stderr.write(`< ${response.status} in ${Date.now() - started} ms${id ? ` (request id ${id})` : ''}\n`);
      return response;
    };
  }
}

export const hasScope = (scopes: readonly Scope[] | undefined, scope: Scope): boolean => Boolean(scopes?.includes(scope));

/** A password piped in ends with the newline of `echo`: that newline is not part of it. */
export const stripNewline = (text: string): string => text.replace(/\r?\n$/, '');
