# Sheaf in a container: Node.js 24, production dependencies only, as the unprivileged `node` user.
#   docker build -t sheaf .
#   docker run -e DATABASE_URL=postgres://… -p 8080:8080 sheaf
# compose.yaml runs two of these behind HAProxy with PostgreSQL and Redis. Sheaf is TypeScript run
# through tsx's loader (a runtime dependency), so there is no compile step; only the web app is built.
# No `# syntax=` line: nothing here needs a newer Dockerfile frontend, and BuildKit would fetch one
# from Docker Hub, which fails on a host that reaches only its own registry mirror.

ARG NODE_IMAGE=node:24-bookworm-slim

# ---- the web app: Vite and its plugins are development dependencies, so it is built here
FROM ${NODE_IMAGE} AS web
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: npm's `prepare` would build the web app before the sources are copied.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build:web

# ---- production dependencies (tsx included: `sheaf` runs on it)
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts are needed: esbuild (under tsx) finds its binary in its platform package.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# ---- the runtime
FROM ${NODE_IMAGE}
# DejaVu Sans: invoice and estimate PDFs in every script the fonts cover (without it, Helvetica, Latin-1 only).
RUN apt-get update \
  && apt-get install -y --no-install-recommends fonts-dejavu-core \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    WEB_DIST=/app/web/dist \
    DATA_DIR=/data
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.json ./
COPY bin ./bin
COPY src ./src
COPY --from=web /app/web/dist ./web/dist
# DATA_DIR holds the embedded database when DATABASE_URL is not set (one container only).
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 8080
# Ready when the database answers (/healthz); fetch is built into Node.js, so no curl in the image.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "bin/sheaf.js"]
CMD ["serve"]
