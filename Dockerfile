# The Parlance service for operators: API, workers and the console in one process on the embedded database, or
# `parlance serve` / `parlance worker` on PostgreSQL and Redis (set DATABASE_URL and REDIS_URL). See the README's Docker section.
#   docker build -t parlance .
#   docker run --init -p 8787:8787 -v parlance-data:/data parlance
# The build stage compiles build/ with the dev dependencies; the runtime stage holds the compiled code and the
# production dependencies only (no TypeScript, no tsx, no esbuild) and runs as the unprivileged `node` user.
ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Dependencies first, so a change to the sources does not reinstall them; the build (npm's prepare) runs below, once the sources are here.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:${NODE_VERSION}-slim
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: prepare would rebuild, which needs the dev dependencies; build/ comes from the build stage.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/build ./build
COPY bin/parlance.js ./bin/parlance.js
COPY server/db/migrations ./server/db/migrations
COPY server/web/public ./server/web/public
# The embedded database lives in the volume; the image's own files stay owned by root and read-only to the service.
RUN mkdir /data && chown node:node /data
# Inside the container only: listen on every interface (the port is published by `docker run -p`), keep data in /data.
ENV NODE_ENV=production \
    PARLANCE_HOST=0.0.0.0 \
    PORT=8787 \
    PARLANCE_DATA_DIR=/data
USER node
VOLUME /data
EXPOSE 8787
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8787) + '/healthz').then((res) => process.exit(res.ok ? 0 : 1), () => process.exit(1))"]
# The command line after the image name is a parlance command: `docker run … parlance serve`, `… parlance admin org list`.
ENTRYPOINT ["node", "bin/parlance.js"]
CMD ["start"]
