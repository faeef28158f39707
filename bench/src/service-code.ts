/* eslint-disable @nx/enforce-module-boundaries -- deliberate, see below */
/**
 * The services' own code the benchmark seeds with, so that what it writes directly is exactly what the API
 * would have written (same derived search and sort keys, same user documents, same password hashes).
 * Everything the benchmark takes from inside the apps comes through this one module.
 */
export { getCategory } from '../../apps/catalog-service/src/categories/categories';
export {
  catalogSchemas,
  type EntryFieldsInput,
} from '../../apps/catalog-service/src/catalog/catalog.schemas';
export { newEntryDocument, type EntryDocument } from '../../apps/catalog-service/src/catalog/entry.document';
export { titleKey, titleWords } from '../../apps/catalog-service/src/search/text-folding';
export { createCatalogModule, type CatalogModule } from '../../apps/catalog-service/src/catalog-module';
export type { ListStatus } from '../../apps/catalog-service/src/lists/lists.schemas';
export { withStatusDates } from '../../apps/catalog-service/src/lists/list-dates';
export { ARGON2_MIN_MEMORY_KIB, ARGON2_MIN_TIME_COST } from '../../apps/auth-service/src/config';
export { PasswordHasher } from '../../apps/auth-service/src/users/password-hasher';
export { UsersRepository } from '../../apps/auth-service/src/users/users.repository';
export { createJwksClient } from '../../apps/gateway/src/authn/jwks-client';
