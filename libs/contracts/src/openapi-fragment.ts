import { OpenApiGeneratorV3, type OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';

/** What a service hands over for the aggregate document: its paths and the components they use. */
export interface OpenApiFragment {
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
  /** The tags its operations use, with their descriptions. */
  tags?: Array<{ name: string; description: string }>;
}

export function generateFragment(registry: OpenAPIRegistry): OpenApiFragment {
  const document = new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: '3.0.3',
    info: { title: 'fragment', version: '1' },
  });
  return {
    paths: (document.paths ?? {}) as Record<string, Record<string, unknown>>,
    components: (document.components ?? {}) as Record<string, Record<string, unknown>>,
  };
}
