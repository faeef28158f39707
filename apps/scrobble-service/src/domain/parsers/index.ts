import type { ScrobbleEvent, Server } from '../scrobble-event';
import { parseEmby } from './emby.parser';
import { parseGeneric } from './generic.parser';
import { parseJellyfin } from './jellyfin.parser';
import { parsePlex } from './plex.parser';

/** One pure parser per server: the server's JSON text → one normalised event (or NotServerFormatError). */
export const PARSERS: Record<Server, (body: string) => ScrobbleEvent> = {
  jellyfin: parseJellyfin,
  plex: parsePlex,
  emby: parseEmby,
  generic: parseGeneric,
};
