export { createDiscoveryRouter, type DiscoveryDeps } from './discovery.routes';
export { DOCS_CONTENT_SECURITY_POLICY } from './docs-page';
