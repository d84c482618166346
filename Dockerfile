# The drp2-fixtures GitHub Action: a static binary in a minimal image.
#
# No USER line: a Docker action must run as root to write GITHUB_OUTPUT and
# the step summary under /github/file_commands. No WORKDIR: GitHub mounts the
# workspace and makes it the working directory.

# The build stage runs on the builder's own platform and cross-compiles,
# so a multi-arch build needs no emulation.
FROM --platform=$BUILDPLATFORM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG TARGETOS=linux
ARG TARGETARCH
# VERSION and COMMIT are stamped into the binary (drp2-fixtures version, the
# JSON and JUnit reports); the release workflow passes the tag and the
# commit, since the build context has no .git. Empty means "(devel)".
ARG VERSION=
ARG COMMIT=
RUN CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH \
    go build -trimpath -buildvcs=false \
      -ldflags="-s -w -X github.com/drp2/drp2-fixtures/internal/version.release=${VERSION} -X github.com/drp2/drp2-fixtures/internal/version.commit=${COMMIT}" \
      -o /out/drp2-fixtures ./cmd/drp2-fixtures

FROM gcr.io/distroless/static-debian12
# distroless/static carries the CA certificates (and tzdata) and nothing to run but our binary.
COPY --from=build /out/drp2-fixtures /drp2-fixtures
ENTRYPOINT ["/drp2-fixtures"]
# The image says where it comes from: GitHub links the package to SOURCE's
# repository, and the version and revision name the release.
ARG VERSION=
ARG COMMIT=
ARG SOURCE=
LABEL org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${COMMIT}" \
      org.opencontainers.image.title="drp2-fixtures" \
      org.opencontainers.image.description="The conformance gate for DRP2 command streams"
