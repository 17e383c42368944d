# Service image for docker-compose.yml (DATABASE_URL mode; the embedded database is for local runs).
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# Compiled JavaScript in production: no TypeScript compiler or ts-node (and its REPL) at run time.
RUN npm run build
ENV NODE_ENV=production PORT=3000
EXPOSE 3000
CMD ["node", "dist/src/app/main.js"]
