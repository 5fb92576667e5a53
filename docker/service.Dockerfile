# syntax=docker/dockerfile:1.7
# One of the five services (services/<SERVICE>/), listening on PORT. The build context is the
# repository root, and both arguments are required (docker-compose.yml gives them):
#   docker build -f docker/service.Dockerfile --build-arg SERVICE=auth --build-arg PORT=4001 -t cartable/auth .
# The gateway has its own (gateway/Dockerfile): it also builds and ships the frontends.
#
# Stages: manifests -> deps (every workspace, dev tools included) -> build (tsup bundle)
#         prod-deps (production packages of the service and of the libs bundled into it)
#         assemble (runtime layout, import check) -> runtime (the image).
# Every stage uses the same glibc base (Debian bookworm): native packages such as
# @node-rs/argon2 or sharp install their prebuilt glibc binaries in one stage and run in another.

FROM node:22-bookworm-slim AS base
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false
WORKDIR /app

# The lockfile and every workspace's package.json, nothing else: the npm layers below are
# rebuilt when a manifest changes, not when a source file does.
FROM base AS manifests
COPY . /src
RUN set -eu; cd /src; mkdir -p /manifests; cp package.json package-lock.json /manifests/; \
    for pattern in $(node -p "require('./package.json').workspaces.join(' ')"); do \
      for dir in $pattern; do \
        if [ -f "$dir/package.json" ]; then cp --parents "$dir/package.json" /manifests/; fi; \
      done; \
    done

# npm install --no-save rather than npm ci: package-lock.json is written on machines whose
# registry lacks other platforms' optional packages (@biomejs/cli-darwin-arm64, ...), which
# npm ci rejects as "Missing from lock file". install keeps every locked version, adds only
# those, and leaves the lockfile as it is.
FROM base AS deps
COPY --from=manifests /manifests/ ./
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm install --no-save

# One ESM bundle, dist/main.js: the workspace libs are compiled in, npm packages stay external
# (docker/tsup.config.mjs). /out is the package folder as it will be in the image.
FROM deps AS build
ARG SERVICE
COPY . .
WORKDIR /app/services/${SERVICE}
RUN : "${SERVICE:?docker build needs --build-arg SERVICE=<name>}" \
 && ../../node_modules/.bin/tsup --config ../../docker/tsup.config.mjs \
 && mkdir -p /out \
 && cp -R dist package.json /out/ \
 && if [ -d drizzle ]; then cp -R drizzle /out/; fi

# Production packages only: those of the service and of the libs bundled into it. The workspace
# links are dropped, their code is in the bundle.
FROM base AS prod-deps
ARG SERVICE
COPY --from=manifests /manifests/ ./
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm install --no-save --omit=dev --include-workspace-root=false \
      --workspace @cartable/${SERVICE} --workspace @cartable/service-kit --workspace @cartable/contracts \
 && rm -rf node_modules/@cartable \
 && mkdir -p services/${SERVICE}/node_modules

# The runtime tree: /app/node_modules, /app/services/<SERVICE>/{dist,package.json,drizzle}. The
# build fails here if the bundle imports a package that this tree cannot resolve.
FROM base AS assemble
ARG SERVICE
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=prod-deps /app/services/${SERVICE}/node_modules ./services/${SERVICE}/node_modules
COPY --from=build /out ./services/${SERVICE}
COPY docker/check-externals.mjs /tmp/check-externals.mjs
RUN node /tmp/check-externals.mjs services/${SERVICE} && rm -f services/${SERVICE}/dist/metafile-*.json

FROM base AS runtime
ARG SERVICE
ARG PORT
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=${PORT} \
    DATA_DIR=/data
COPY --from=assemble /app /app
RUN : "${PORT:?docker build needs --build-arg PORT=<port>}" && mkdir -p /data && chown node:node /data
WORKDIR /app/services/${SERVICE}
USER node
EXPOSE ${PORT}
# Liveness only (/health checks no dependency); compose and Kubernetes probe /ready as well.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--enable-source-maps", "dist/main.js"]
