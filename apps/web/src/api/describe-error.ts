import { ApiError, ApiNetworkError } from '@mt/api-client';

export interface DescribedError {
  /** One sentence for the person, shown near what they did. */
  message: string;
  /** Field name → what is wrong with it (from the error payload's `details`). */
  fields: Record<string, string>;
  /** To quote to whoever runs the server: only for faults of the server (5xx), never for a person's own mistake. */
  requestId?: string;
  status?: number;
  code?: string;
  existingId?: string;
}

const capitalise = (text: string) => (text ? text[0]!.toUpperCase() + text.slice(1) : text);
const sentence = (text: string) => {
  const trimmed = capitalise(text.trim());
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
};

/** The top-level field a detail path names (`genres.2` → `genres`, `body.title` → `title`). */
const fieldOf = (detailPath: string) => detailPath.replace(/^(body|query|params)\./, '').split('.')[0] ?? detailPath;

/** An error the app raises itself, already in words for the person. */
export class UserFacingError extends Error {
  override readonly name = 'UserFacingError';
}

/**
 * Any error of an API call, in words: the server's own message where it has one, else what went wrong.
 * `shownFields` are the fields the form displays an error under; a detail about any other key (`body`,
 * a field the form does not have) goes into `message`, so no error the server gives is left unseen.
 */
export function describeError(error: unknown, shownFields?: readonly string[]): DescribedError {
  if (error instanceof ApiError) {
    const fields: Record<string, string> = {};
    const unshown: string[] = [];
    for (const detail of error.details) {
      const field = fieldOf(detail.path);
      if (field && !fields[field]) fields[field] = sentence(detail.message);
      if (!shownFields?.includes(field)) unshown.push(sentence(detail.message));
    }
    const serverFault = error.status >= 500 || error.code === 'unexpected_response';
    const base = { fields, requestId: serverFault ? error.requestId : undefined, status: error.status, code: error.code, existingId: error.existingId };
    switch (error.code) {
      case 'rate_limited':
        return {
          ...base,
          message: error.retryAfterSeconds
            ? `Too many attempts. Try again in ${error.retryAfterSeconds} seconds.`
            : 'Too many attempts. Try again in a minute.',
        };
      case 'service_unavailable':
      case 'bad_gateway':
      case 'gateway_timeout':
        return { ...base, message: 'The service is not available right now. Try again in a moment.' };
      case 'internal':
        return { ...base, message: 'Something went wrong on the server. Try again; if it keeps happening, quote the request id.' };
      case 'unexpected_response':
        return { ...base, message: `The server answered in an unexpected way (HTTP ${error.status}).` };
      case 'validation_failed':
        if (unshown.length) return { ...base, message: [...new Set(unshown)].join(' ') };
        return { ...base, message: Object.keys(fields).length ? 'Some fields need attention.' : sentence(error.message) };
      default:
        return { ...base, message: sentence(error.message) };
    }
  }
  if (error instanceof ApiNetworkError) {
    return {
      fields: {},
      message: error.timedOut
        ? 'The server took too long to answer. Try again.'
        : 'Could not reach the server. Check your connection and try again.',
    };
  }
  if (error instanceof UserFacingError) return { fields: {}, message: error.message };
  return { fields: {}, message: 'Something went wrong in this page. Reload it and try again.' };
}

export const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';
