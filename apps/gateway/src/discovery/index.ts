export { discoveryEndpoints, GATEWAY_MOUNT } from './discovery.endpoints';
export { DOCS_CONTENT_SECURITY_POLICY } from './docs-page';
export { gatewayFragment } from './gateway-openapi';
export { OpenApiDocument } from './openapi-document';
