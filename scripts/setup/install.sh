#!/usr/bin/env bash
# Installs one drp2-fixtures release binary: downloads the platform's
# archive and the release's checksums.txt, refuses the archive unless its
# sha256 is the one listed, unpacks the binary and checks that it runs and
# names the requested release. Used by scripts/setup/action.yml; runs as well by
# hand (DRP2_VERSION=v1.2.3 bash install.sh).
#
# Inputs (environment): DRP2_VERSION (vX.Y.Z or latest), DRP2_REPOSITORY
# (OWNER/NAME), DRP2_INSTALL_DIR, DRP2_SERVER_URL (https://github.com),
# DRP2_OS / DRP2_ARCH (the runner's names; default: this machine's).
set -euo pipefail

# die ends the step with an error annotation. Its message can hold an input
# as given (a version, a repository), so it is written as a workflow
# command's data: % and line breaks escaped, and no input can end the line
# and start a command of its own.
die() {
  local msg=$*
  msg=${msg//%/%25}
  msg=${msg//$'\r'/%0D}
  msg=${msg//$'\n'/%0A}
  echo "::error title=drp2-fixtures setup::$msg" >&2
  exit 1
}

version=${DRP2_VERSION:-latest}
repository=${DRP2_REPOSITORY:-drp2/drp2-fixtures}
server=${DRP2_SERVER_URL:-https://github.com}
server=${server%/}

# Inputs become parts of a URL and a path: only their expected shapes pass.
[[ $version == latest || $version =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
  die "version must be vMAJOR.MINOR.PATCH or latest, not '$version'"
[[ $repository =~ ^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$ ]] ||
  die "repository must be OWNER/NAME, not '$repository'"
[[ $server =~ ^https?://[A-Za-z0-9.:-]+(/[A-Za-z0-9._/-]*)?$ ]] ||
  die "server URL '$server' is not an http(s) URL"

case "${DRP2_OS:-$(uname -s)}" in
  Linux) os=linux ;;
  macOS | Darwin) os=darwin ;;
  Windows | MINGW* | MSYS* | CYGWIN*) os=windows ;;
  *) die "no release binary for the operating system '${DRP2_OS:-$(uname -s)}'" ;;
esac
case "${DRP2_ARCH:-$(uname -m)}" in
  X64 | x86_64 | amd64) arch=amd64 ;;
  ARM64 | arm64 | aarch64) arch=arm64 ;;
  *) die "no release binary for the architecture '${DRP2_ARCH:-$(uname -m)}'" ;;
esac

dir=${DRP2_INSTALL_DIR:-}
if [ -z "$dir" ]; then
  [ -n "${RUNNER_TEMP:-}" ] || die "set DRP2_INSTALL_DIR to the folder to install into"
  dir=$RUNNER_TEMP/drp2-fixtures
fi

binary=drp2-fixtures
archive=drp2-fixtures_${os}_${arch}.tar.gz
if [ "$os" = windows ]; then
  binary=drp2-fixtures.exe
  archive=drp2-fixtures_${os}_${arch}.zip
fi

if [ "$version" = latest ]; then
  base="$server/$repository/releases/latest/download"
else
  base="$server/$repository/releases/download/$version"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fetch() {
  curl --fail --silent --show-error --location --retry 3 --output "$tmp/$1" "$base/$1" ||
    die "could not download $base/$1"
}
fetch checksums.txt
fetch "$archive"

want=$(awk -v name="$archive" '$2 == name { print $1 }' "$tmp/checksums.txt")
[[ $want =~ ^[0-9a-f]{64}$ ]] || die "checksums.txt of $version lists no sha256 for $archive"
if command -v sha256sum >/dev/null; then
  got=$(sha256sum "$tmp/$archive" | awk '{ print $1 }')
else
  got=$(shasum -a 256 "$tmp/$archive" | awk '{ print $1 }')
fi
[ "$got" = "$want" ] || die "$archive has sha256 $got, but checksums.txt says $want: refusing it"

mkdir -p "$dir"
if [ "$os" = windows ]; then
  if command -v unzip >/dev/null; then
    unzip -o -q "$tmp/$archive" "$binary" -d "$dir"
  else
    pwsh -NoProfile -Command "Expand-Archive -Force -LiteralPath '$tmp/$archive' -DestinationPath '$dir'"
  fi
else
  tar -xzf "$tmp/$archive" -C "$dir" "$binary"
fi
chmod +x "$dir/$binary"

line=$("$dir/$binary" version) || die "the installed $binary does not run on this machine"
echo "$line"
if [ "$version" != latest ] && [[ $line != "drp2-fixtures $version" && $line != "drp2-fixtures $version "* ]]; then
  die "asked for $version, but the binary says: $line"
fi

if [ -n "${GITHUB_PATH:-}" ]; then echo "$dir" >> "$GITHUB_PATH"; fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "path=$dir/$binary"
    echo "version=${line#drp2-fixtures }"
  } >> "$GITHUB_OUTPUT"
fi
