import type { ShardingDeclaration } from '@mt/stores';
import { EVENT_SHARDING } from './events.repository';
import { HOOK_SHARDING } from './hooks.repository';
import { INBOX_SHARDING } from './inbox.repository';
import { MAPPING_SHARDING } from './mappings.repository';
import { PLAY_GUARD_SHARDING } from './play-guards.repository';

/** Every scrobble collection's sharding declaration (each beside its indexes), for the index check and the docs. */
export const SCROBBLE_SHARDING: readonly ShardingDeclaration[] = [HOOK_SHARDING, EVENT_SHARDING, PLAY_GUARD_SHARDING, INBOX_SHARDING, MAPPING_SHARDING];
