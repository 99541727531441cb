# The release's container image, ghcr.io/mcp-surface/mcp-surface: the
# static binary goreleaser built (dockers_v2 in .goreleaser.yaml puts it
# at $TARGETPLATFORM/mcp-surface in the build context) on distroless,
# which brings CA certificates (the published MCP schemas are fetched
# over HTTPS) and an unprivileged user with a home for the schema cache.
# It has no shell, git or language runtime: capture servers over --url,
# validate and diff snapshots, or copy the binary into your own image:
#   COPY --from=ghcr.io/mcp-surface/mcp-surface:v1 /usr/local/bin/mcp-surface /usr/local/bin/
FROM gcr.io/distroless/static-debian12:nonroot
ARG TARGETPLATFORM
COPY ${TARGETPLATFORM}/mcp-surface /usr/local/bin/mcp-surface
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/mcp-surface"]
CMD ["--help"]
