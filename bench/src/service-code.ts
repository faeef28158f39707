/* eslint-disable @nx/enforce-module-boundaries -- deliberate, see below */
/**
 * The services' own code the benchmark seeds with, so that what it writes directly is exactly what the API
 * would have written (same derived search and sort keys, same user documents, same password hashes).
 * Everything the benchmark takes from inside the apps comes through this one module.
 */
export { getCategory } from '../../apps/catalog-service/src/domain/categories';
export { catalogSchemas } from '../../apps/catalog-service/src/features/catalog/catalog.schemas';
export type { EntryFieldsInput } from '../../apps/catalog-service/src/domain/catalog-query';
export { newEntryDocument } from '../../apps/catalog-service/src/domain/catalog-entry';
export type { EntryDocument } from '../../apps/catalog-service/src/domain/records/catalog-entry.record';
export { titleKey, titleWords } from '@mt/domain';
export { createCatalogModule, type CatalogModule } from '../../apps/catalog-service/src/composition/catalog-module';
export type { ListStatus } from '../../apps/catalog-service/src/domain/list-entry';
export { withStatusDates } from '../../apps/catalog-service/src/domain/list-dates';
export { ARGON2_MIN_MEMORY_KIB, ARGON2_MIN_TIME_COST } from '../../apps/auth-service/src/config';
export { PasswordHasher } from '../../apps/auth-service/src/users/password-hasher';
export { UsersRepository } from '../../apps/auth-service/src/users/users.repository';
export { JwksClient } from '../../apps/gateway/src/authn/jwks-client';
