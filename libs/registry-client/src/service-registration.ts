import type { CategoryRecord, InstanceRegistration } from '@mt/contracts';
import { endpointsOpenApi, routeManifest, type EndpointGroup } from '@mt/endpoints';

export interface ServiceRegistrationInput {
  /** The service's segment under /api/v1 (`auth`, `movies`). */
  service: string;
  baseUrl: string;
  version: string;
  /** The public endpoint groups: their manifest and OpenAPI fragment are derived here, never written by hand. */
  groups: readonly EndpointGroup[];
  category?: CategoryRecord;
}

/** What an instance tells the registry about itself, computed once from its endpoint declarations. */
export function serviceRegistration(input: ServiceRegistrationInput): InstanceRegistration {
  return {
    service: input.service,
    ...(input.category ? { category: input.category } : {}),
    base_url: input.baseUrl,
    version: input.version,
    manifest: routeManifest(input.groups),
    openapi: endpointsOpenApi(input.groups),
  };
}
