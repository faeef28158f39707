import { ApiError, ApiNetworkError } from '@mt/api-client';
import { EXIT, type ExitCode } from './exit-codes';

/** An error the CLI itself reports (bad arguments, not logged in...), with the exit code it ends with. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    /** A line on what to do about it, printed after the message. */
    readonly hint?: string,
    /** The entry that is already there (a list entry added twice). */
    readonly existingId?: string,
  ) {
    super(message);
  }
}

export const usageError = (message: string, hint?: string) => new CliError(message, EXIT.usage, hint);
export const authError = (message: string, hint?: string) => new CliError(message, EXIT.auth, hint);

/** What an error report says, on stderr as text or (with --json) as this object. */
export interface ErrorReport {
  message: string;
  exit_code: ExitCode;
  hint?: string;
  /** Present when the API answered: the error payload's fields. */
  status?: number;
  code?: string;
  request_id?: string;
  details?: ReadonlyArray<{ path: string; message: string }>;
  existing_id?: string;
  retry_after?: number;
}

export function exitCodeOfStatus(status: number): ExitCode {
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 404) return EXIT.notFound;
  if (status === 409) return EXIT.conflict;
  if (status === 429) return EXIT.rateLimited;
  if (status === 400 || status === 413 || status === 415) return EXIT.usage;
  if (status >= 500) return EXIT.server;
  return EXIT.error;
}

const HINTS: Partial<Record<number, string>> = {
  401: 'run `mt login` (or check MT_TOKEN)',
  429: 'wait and try again (or raise --max-wait)',
};

export function reportOf(error: unknown): ErrorReport {
  if (error instanceof CliError) {
    return {
      message: error.message,
      exit_code: error.exitCode,
      ...(error.existingId ? { existing_id: error.existingId } : {}),
      ...(error.hint ? { hint: error.hint } : {}),
    };
  }
  if (error instanceof ApiError) {
    const hint = HINTS[error.status];
    return {
      message: error.message,
      exit_code: exitCodeOfStatus(error.status),
      status: error.status,
      code: error.code,
      ...(error.requestId ? { request_id: error.requestId } : {}),
      ...(error.details.length ? { details: error.details } : {}),
      ...(error.existingId ? { existing_id: error.existingId } : {}),
      ...(error.retryAfterSeconds !== undefined ? { retry_after: error.retryAfterSeconds } : {}),
      ...(hint ? { hint } : {}),
    };
  }
  if (error instanceof ApiNetworkError) {
    return { message: error.message, exit_code: EXIT.server, hint: 'is the server running? (--url, MT_URL)' };
  }
  // A bug of the CLI: its message, never a stack trace (which could quote a request's headers).
  return { message: `unexpected error: ${error instanceof Error ? error.message : String(error)}`, exit_code: EXIT.error };
}

/** The text form: `mt: <message>`, then the API's code, status and request id, the details and a hint. */
export function formatReport(report: ErrorReport): string {
  const lines = [`mt: ${report.message}`];
  if (report.status !== undefined) {
    const parts = [`HTTP ${report.status}`, report.code, report.request_id ? `request id ${report.request_id}` : undefined];
    lines.push(`    (${parts.filter(Boolean).join(', ')})`);
  }
  // A detail that only repeats the message (an import's unreadable `body`) is said once.
  for (const detail of (report.details ?? []).filter((d) => d.message !== report.message)) lines.push(`    - ${detail.path ? `${detail.path}: ` : ''}${detail.message}`);
  if (report.existing_id) lines.push(`    existing entry: ${report.existing_id}`);
  if (report.retry_after !== undefined) lines.push(`    retry after ${report.retry_after} s`);
  if (report.hint) lines.push(`hint: ${report.hint}`);
  return lines.join('\n');
}
