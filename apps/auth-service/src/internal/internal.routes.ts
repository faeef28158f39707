import { INTERNAL_PATHS, IntrospectionRequestSchema, type Jwks, type JwtCutoff, type OpenApiFragment } from '@mt/contracts';
import { defineRoute } from '@mt/http';
import { requireInternalSecret } from '@mt/identity';
import { parseBody, parseObjectId } from '@mt/validation';
import { Router } from 'express';
import type { UsersRepository } from '../users/users.repository';
import type { IntrospectionService } from './introspection.service';

export interface InternalRouterDeps {
  secret: string;
  jwks: Jwks;
  openapi: OpenApiFragment;
  introspection: IntrospectionService;
  users: UsersRepository;
}

/** Endpoints for the other services; the gateway never routes public traffic here. */
export function internalRouter({ secret, jwks, openapi, introspection, users }: InternalRouterDeps): Router {
  const router = Router();
  const internalOnly = requireInternalSecret(secret);

  // Public keys and the API description are public information: no secret needed.
  defineRoute(router, INTERNAL_PATHS.jwks, {
    get: (_req, res) => {
      res.setHeader('Cache-Control', 'public, max-age=300');
      res.json(jwks);
    },
  });
  defineRoute(router, INTERNAL_PATHS.authOpenApi, { get: (_req, res) => void res.json(openapi) });

  defineRoute(router, INTERNAL_PATHS.introspect, {
    post: [
      internalOnly,
      async (req, res) => {
        const { token } = parseBody(IntrospectionRequestSchema, req);
        res.setHeader('Cache-Control', 'no-store');
        res.json(await introspection.introspect(token));
      },
    ],
  });

  // INTERNAL_PATHS.jwtCutoff(id) as an express pattern (the helper would encode the ':').
  defineRoute(router, '/internal/users/:id/jwt-cutoff', {
    get: [
      internalOnly,
      async (req, res) => {
        const user = await users.findById(parseObjectId(req.params['id'], 'id'));
        const body: JwtCutoff = user ? { exists: true, cutoff_ms: user.jwtCutoffMs } : { exists: false, cutoff_ms: null };
        res.setHeader('Cache-Control', 'no-store');
        res.json(body);
      },
    ],
  });

  return router;
}
