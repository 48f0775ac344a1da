# Multi-stage build of the Legislative Data Service.
# Runs as a non-root user; uses DATABASE_URL when given (the embedded PostgreSQL otherwise, with
# its data under /data).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-fund --no-audit
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npx tsc -p tsconfig.build.json && npm prune --omit=dev --no-fund --no-audit

FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
WORKDIR /app
RUN groupadd --system --gid 10001 lds && useradd --system --uid 10001 --gid lds --home-dir /app lds \
  && mkdir -p /data && chown lds:lds /data
COPY --from=build --chown=lds:lds /app/node_modules ./node_modules
COPY --from=build --chown=lds:lds /app/dist ./dist
COPY --chown=lds:lds package.json ./
COPY --chown=lds:lds bin ./bin
COPY --chown=lds:lds public ./public
COPY --chown=lds:lds src/db/migrations ./src/db/migrations
USER lds
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/v1/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "bin/lds.js"]
CMD ["serve"]
