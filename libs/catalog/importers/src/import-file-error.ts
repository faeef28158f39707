import { AppError } from '@mt/errors';
import type { ImportLimits } from './limits';

/**
 * Why a whole file is refused: `unreadable` (not the source's format, not UTF-8, broken syntax: 400 before
 * any job exists) or `too_large` (over an import limit: 413). Problems of single rows are not errors: they
 * are reported as failed rows.
 */
export type ImportFileProblem = 'unreadable' | 'too_large';

/** An AppError, so the import endpoint can let it reach the error middleware as it is. */
export class ImportFileError extends AppError {
  constructor(
    readonly problem: ImportFileProblem,
    message: string,
    /** The limit that was exceeded, for `too_large`. */
    readonly limit?: keyof ImportLimits,
  ) {
    super(
      problem === 'too_large' ? 'payload_too_large' : 'validation_failed',
      message,
      problem === 'unreadable' ? { details: [{ path: 'body', message }] } : {},
    );
    this.name = 'ImportFileError';
  }
}

export const isImportFileError = (error: unknown): error is ImportFileError =>
  error instanceof ImportFileError;

export const unreadableFile = (message: string): ImportFileError =>
  new ImportFileError('unreadable', message);

export const fileTooLarge = (message: string, limit: keyof ImportLimits): ImportFileError =>
  new ImportFileError('too_large', message, limit);
