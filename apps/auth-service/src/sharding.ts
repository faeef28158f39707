import type { ShardingDeclaration } from '@mt/stores';
import { OUTBOX_SHARDING } from './outbox/outbox.document';
import { TOKEN_SHARDING } from './tokens/token.document';
import { ADMIN_CLAIM_SHARDING } from './users/admin-claim.document';
import { USER_SHARDING } from './users/user.document';

/** Every auth collection's sharding declaration (each beside its schema), for the index check and the docs. */
export const AUTH_SHARDING: readonly ShardingDeclaration[] = [USER_SHARDING, TOKEN_SHARDING, OUTBOX_SHARDING, ADMIN_CLAIM_SHARDING];
