import { AppError, errors } from '@mt/errors';

/** The documented default of IMPORT_UPLOADS_AT_ONCE. */
export const DEFAULT_IMPORT_UPLOADS_AT_ONCE = 2;
/** What a client told to come back later waits: about the time one upload takes to validate. */
const RETRY_AFTER_SECONDS = 5;

export const ACTIVE_IMPORT = 'an import into this list is already queued or running; wait until it has finished';

/**
 * Admits import uploads before their body is read: the upload is read and validated whole before its job
 * exists, so without this a user could have many uploads parsed at once only to see all but one refused at
 * the end, and many users could have this instance validate more files at once than its memory and CPU
 * allow. A user has one upload at a time here (409, as for a queued or running job), and the instance at
 * most `atOnce` (503 with Retry-After).
 */
export class UploadAdmission {
  private readonly users = new Set<string>();

  constructor(private readonly atOnce = DEFAULT_IMPORT_UPLOADS_AT_ONCE) {}

  /** Takes the places of `userId`'s upload; returns what gives them back (once, whatever happens). */
  admit(userId: string): () => void {
    if (this.users.has(userId)) throw errors.conflict(ACTIVE_IMPORT);
    if (this.users.size >= this.atOnce) {
      throw new AppError('service_unavailable', 'too many imports are being uploaded right now; try again shortly', {
        headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      });
    }
    this.users.add(userId);
    return () => this.users.delete(userId);
  }
}
