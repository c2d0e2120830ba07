# syntax=docker/dockerfile:1
# One image for every Kaboodle target: `kaboodle --target=<all|auth|ingestion|processing|catalogue|search|web>`.
# charts/kaboodle passes the target as the container's args.
#   docker build -t kaboodle/kaboodle:0.2.0 .
#   docker run -p 8080:8080 -v kaboodle-data:/data kaboodle/kaboodle:0.2.0
# NODE_VERSION follows .nvmrc (tests/contract/chart.test.ts checks they agree).
ARG NODE_VERSION=24.21.0

# 1. Only the package manifests and the lock, so the dependency layer below is rebuilt only when
#    one of them changes (not on every source edit).
FROM node:${NODE_VERSION}-slim AS manifests
WORKDIR /src
COPY . .
RUN mkdir -p /out \
 && find . -name package.json -not -path '*/node_modules/*' -exec cp --parents {} /out/ \; \
 && cp package-lock.json /out/

# 2. Install everything (the web frontends build with dev tools), build, then drop dev dependencies
#    and onnxruntime-node's binaries for other platforms (240 of its 288 MB).
FROM node:${NODE_VERSION}-slim AS build
WORKDIR /app
# For native add-ons without a prebuilt binary for this platform.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY --from=manifests /out/ ./
# onnxruntime-node's CPU runtime is in its tarball; its install script would only fetch CUDA libraries.
ENV ONNXRUNTIME_NODE_INSTALL=skip
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY . .
# Generated protobuf code is committed (proto/gen); this builds the module-federated frontends.
RUN npm run --silent build --workspaces --if-present \
 && npm prune --omit=dev --no-audit --no-fund \
 && arch="$(uname -m | sed -e 's/x86_64/x64/' -e 's/aarch64/arm64/')" \
 && find . -type d -path '*/onnxruntime-node/bin/napi-v*/*' \
      \( -name darwin -o -name win32 -o \( -path '*/linux/*' -not -name "$arch" \) \) -prune -exec rm -rf {} +

# 3. Runtime: Node runs the services' TypeScript directly (type stripping), as a non-root user, on
#    a root filesystem that stays read-only in Kubernetes; data goes to /data.
FROM node:${NODE_VERSION}-slim AS runtime
ENV NODE_ENV=production \
    PORT=8080 \
    GRPC_PORT=9090 \
    KABOODLE_DATA_DIR=/data
RUN groupadd --gid 10001 kaboodle \
 && useradd --uid 10001 --gid kaboodle --no-create-home --shell /usr/sbin/nologin kaboodle \
 && mkdir -p /data \
 && chown kaboodle:kaboodle /data
WORKDIR /app
# Owned by root: the app user can read its code but not change it.
COPY --from=build /app ./
RUN ln -s /app/services/server/bin/kaboodle /usr/local/bin/kaboodle
USER 10001:10001
EXPOSE 8080 9090
VOLUME ["/data"]
HEALTHCHECK --interval=30s --timeout=3s --start-period=60s \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["kaboodle"]
CMD ["--target=all"]
