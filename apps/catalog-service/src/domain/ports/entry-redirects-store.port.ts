import type { Session } from './atomic.port';
import type { Id } from '../ids';

/** Where merged catalog entries lead (data/entry-redirects.repository.ts). */
export interface EntryRedirectsStore {
  record(from: Id, into: Id, at: Date, session: Session): Promise<void>;
  forgetInto(into: Id, session: Session): Promise<void>;
  target(from: Id): Promise<Id | null>;
}
