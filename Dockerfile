# syntax=docker/dockerfile:1
# The app's image: built once here, run with production dependencies only, as a user
# without privileges. The Node version is the one CI tests and package.json's `engines` admits:
# Node 20.20, as on the machines that run the suite (docs/decisions.md, "One runtime").
ARG NODE_IMAGE=node:20.20.2-bookworm-slim

# --- build: every dependency, the client (web/dist) and the server's JavaScript (build/)
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx vite build --config web/vite.config.ts --logLevel warn \
 && npm run build:server

# --- production dependencies only (no vite, esbuild, vitest, Playwright, types)
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# --- runtime
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/var
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.json ./
# The operator CLI (`npm run ledger -- …`, run by tsx, a production dependency) reads the sources.
COPY server ./server
COPY ledger ./ledger
COPY projections ./projections
COPY migrations ./migrations
COPY scripts ./scripts
COPY --from=build /app/build ./build
COPY --from=build /app/web/dist ./web/dist
# Only the data folder (blobs, secrets outside production, the embedded database) is writable.
RUN mkdir -p /app/var && chown node:node /app/var
USER node
VOLUME ["/app/var"]
EXPOSE 3000

# Liveness only: a database outage shows on /readyz, and restarting the container would not mend it.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/livez').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# Plain node on the built JavaScript: nothing is compiled at start. It migrates, then serves.
CMD ["node", "build/server/main.js"]
