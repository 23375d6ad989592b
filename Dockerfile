# spritzer as a container image: `docker build -t spritzer .` then `docker run -p 4290:4290 spritzer`.
# Two stages: the build stage installs every dependency (node-pty compiles, so it needs python3, make and g++, which
# the full node image has) and compiles the server to dist/; the runtime stage keeps only production dependencies
# and runs as a non-root user. Both bases are build arguments, so an offline build can use a local image that
# holds Node (README, "Container image"); users keep the official node images. A context made by
# scripts/image-context.ts (the packed package plus compiled production node_modules, marked by `.prebuilt`) needs
# no registry: the build stage then only copies it (test/package/image/image.test.ts builds the image that way).
ARG BUILD_BASE=node:22-bookworm
ARG BASE=node:22-bookworm-slim

FROM ${BUILD_BASE} AS build
WORKDIR /app
COPY . .
# `npm ci` runs `prepare`, which builds dist/; then drop the dev dependencies (skipped for a prebuilt context).
RUN if [ -f .prebuilt ]; then echo "prebuilt context: dist/ and node_modules as given"; \
    else npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund \
      && npm install --no-save --omit=dev --no-audit --no-fund $(node -p "Object.entries(require('./package.json').peerDependencies).map(([n, v]) => n + '@' + v).join(' ')"); fi

FROM ${BASE}
WORKDIR /app
ENV NODE_ENV=production \
    SPRITZER_ADDR=0.0.0.0:4290
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
COPY --from=build /app/spec ./spec
# Any non-root uid works: spritzer writes only to its temp dir (and --data-dir, when given).
USER 1000:1000
EXPOSE 4290
# The port comes from SPRITZER_ADDR, so `-e SPRITZER_ADDR=0.0.0.0:8080` keeps the check right.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s \
  CMD ["node", "-e", "const p=(process.env.SPRITZER_ADDR||'').split(':').pop()||'4290';fetch('http://127.0.0.1:'+p+'/_spritzer/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "bin/spritzer.mjs"]
