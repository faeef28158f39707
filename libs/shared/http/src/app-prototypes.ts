import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

/**
 * Request and response classes whose prototypes are the app's own (`app.request`, `app.response`), for
 * `http.createServer`. Express gives every request its app's prototypes on entry (`Object.setPrototypeOf`
 * on the request and the response); done to a live object, that switch moves it to a map V8 has not seen
 * and leaves node's HTTP internals megamorphic, a large part of the gateway's CPU per proxied request
 * (bench/README.md "Express's prototype switch"). Created with those prototypes, the switch finds them in
 * place and V8 does nothing.
 */
export function appPrototypes(app: Express): {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
} {
  // Function constructors (not classes): IncomingMessage and ServerResponse are callable that way, and a
  // function's `prototype` can be set to the object express already made for this app.
  function AppRequest(this: IncomingMessage, ...args: ConstructorParameters<typeof IncomingMessage>) {
    IncomingMessage.apply(this, args);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: ServerResponse, ...args: ConstructorParameters<typeof ServerResponse>) {
    ServerResponse.apply(this, args);
  }
  AppResponse.prototype = app.response;
  return {
    IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
    ServerResponse: AppResponse as unknown as typeof ServerResponse,
  };
}
