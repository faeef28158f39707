export { aggregateEndpoints } from './aggregate.endpoints';
export { callerIdentityMiddleware } from './caller-identity.middleware';
