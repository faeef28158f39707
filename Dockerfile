# The services' images, one target each; the build context is the repository root:
#   docker build --target gateway -t media-tracker/gateway .
#   (targets: gateway, auth-service, registry-service, catalog-service, scrobble-service; docker-compose.yml
#   builds all five;
#   and all-in-one: every service in one process, for a small host — docs/operations.md)
# One file, so what every image shares (dependencies, toolchain, user, health check, signal, command) is
# written once and its layers are built once for all of them.
# Debian (glibc) rather than Alpine: argon2 ships prebuilt glibc binaries, so no compiler is needed.

# Production dependencies only: the bundles keep every npm package external.
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# What every app's build needs. Each app's build stage adds its own sources and bundles them (esbuild,
# workspace libs inlined): exactly what `npx nx build <app>` produces.
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.base.json ./
COPY tools/build ./tools/build
COPY libs ./libs

FROM build AS gateway-build
COPY apps/gateway ./apps/gateway
RUN node tools/build/build-app.mjs apps/gateway

FROM build AS auth-service-build
COPY apps/auth-service ./apps/auth-service
RUN node tools/build/build-app.mjs apps/auth-service

FROM build AS registry-service-build
COPY apps/registry-service ./apps/registry-service
RUN node tools/build/build-app.mjs apps/registry-service

FROM build AS catalog-service-build
COPY apps/catalog-service ./apps/catalog-service
RUN node tools/build/build-app.mjs apps/catalog-service

FROM build AS scrobble-service-build
COPY apps/scrobble-service ./apps/scrobble-service
RUN node tools/build/build-app.mjs apps/scrobble-service

# The host imports the apps' definitions: their sources come along, bundled into one main.js.
FROM build AS all-in-one-build
COPY apps/gateway ./apps/gateway
COPY apps/auth-service ./apps/auth-service
COPY apps/registry-service ./apps/registry-service
COPY apps/catalog-service ./apps/catalog-service
COPY apps/scrobble-service ./apps/scrobble-service
COPY apps/all-in-one ./apps/all-in-one
RUN node tools/build/build-app.mjs apps/all-in-one

# What every service's image shares; each target below adds its bundle, port and own settings.
FROM node:24-bookworm-slim AS runtime
# NODE_OPTIONS: a 2 × 8 MiB young generation (libs/stack SERVICE_NODE_OPTIONS, which says why); the
# gateway's own target sets its larger one.
ENV NODE_ENV=production \
    NODE_OPTIONS=--max-semi-space-size=8
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
# The image's own unprivileged "node" user, by number so Kubernetes can verify runAsNonRoot.
USER 1000:1000
# Liveness only (process answers); readiness (/readyz) is for orchestrators that route traffic.
# Node's fetch: slim images have no curl. PORT: each target's default, or the operator's.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/livez',{signal:AbortSignal.timeout(2500)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM starts the graceful shutdown (readiness 503, drain, deregister, close stores, exit 0).
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "main.js"]

FROM runtime AS gateway
COPY --from=gateway-build /src/dist/apps/gateway/ ./
# A 2 × 16 MiB young generation (libs/stack GATEWAY_NODE_OPTIONS, which says why).
ENV PORT=8080 \
    NODE_OPTIONS=--max-semi-space-size=16
EXPOSE 8080

# What an image hosting the auth service adds (its own target, and all-in-one).
# GLIBC_TUNABLES: argon2id takes ~19 MiB per hash; a fixed mmap threshold returns each block to the OS
# when the hash is done (glibc's dynamic threshold would keep ~19 MiB per libuv thread resident), and
# hugetlb=1 maps it in transparent huge pages (a few page faults per hash instead of ~4 900).
# JWT_KEY_DIR: owned by the runtime user, so a named volume mounted there inherits that ownership and the
# service can persist its generated signing key.
FROM runtime AS auth-runtime
ENV GLIBC_TUNABLES=glibc.malloc.mmap_threshold=4194304:glibc.malloc.hugetlb=1 \
    JWT_KEY_DIR=/var/lib/media-tracker/auth-keys
USER 0:0
RUN mkdir -p /var/lib/media-tracker/auth-keys && chown 1000:1000 /var/lib/media-tracker/auth-keys \
    && chmod 700 /var/lib/media-tracker/auth-keys
USER 1000:1000

FROM auth-runtime AS auth-service
COPY --from=auth-service-build /src/dist/apps/auth-service/ ./
ENV PORT=3001
EXPOSE 3001

FROM runtime AS registry-service
COPY --from=registry-service-build /src/dist/apps/registry-service/ ./
ENV PORT=3002
EXPOSE 3002

FROM runtime AS scrobble-service
COPY --from=scrobble-service-build /src/dist/apps/scrobble-service/ ./
ENV PORT=3020
EXPOSE 3020

# Every service in one process (apps/all-in-one/README.md): only the gateway's port is published; the others
# listen on the container's loopback.
FROM auth-runtime AS all-in-one
COPY --from=all-in-one-build /src/dist/apps/all-in-one/ ./
# The services' young generation and the single process's capped old generation (libs/stack
# SINGLE_PROCESS_NODE_OPTIONS, which says why).
ENV PORT=8080 \
    NODE_OPTIONS="--max-semi-space-size=8 --max-old-space-size=512"
EXPOSE 8080

# Last, so a plain `docker build .` (no --target) builds a catalog image.
FROM runtime AS catalog-service
COPY --from=catalog-service-build /src/dist/apps/catalog-service/ ./
ENV PORT=3011
EXPOSE 3011
