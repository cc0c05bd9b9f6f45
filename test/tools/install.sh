#!/usr/bin/env bash
# Installs the test tools the backend and workflow suites need, each into a toolchain cache outside
# the repository keyed by its version, so every clone and CI run on the machine reuses one install:
#   moto        moto[server] from PyPI in a virtualenv: the S3-compatible server of the S3 suites
#   azurite     Azurite from npm: the Azure Blob emulator of the Azure suites
#   actionlint  built from the Go module proxy: lints examples/gitops/voice-platform.yml
#   verdaccio   verdaccio from npm: the npm registry stand-in of the installed-by-name test
#   pypiserver  pypiserver (with passlib, for its password file) from PyPI in a virtualenv: the
#               PyPI stand-in of the same test
# Usage: npm run tools:install [-- moto azurite actionlint verdaccio pypiserver]   (default: all)
# <cache> is $VOICEPLATFORM_TOOL_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/pulumi-voice-platform;
# test/support/test-tools.ts finds the tools there (or on PATH). A tool already there is kept.
set -euo pipefail

# The versions; test/support/test-tools.ts reads them from here.
MOTO_VERSION=5.2.5
AZURITE_VERSION=3.37.0
ACTIONLINT_VERSION=1.7.12
# verdaccio 6.10 needs Node 22; 6.8.0 runs on Node 20 once node-fetch is held at 2.7.0.
VERDACCIO_VERSION=6.8.0
PYPISERVER_VERSION=2.4.2

cache="${VOICEPLATFORM_TOOL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-voice-platform}"
log() { printf '[tools:install] %s\n' "$*"; }
die() {
  printf '[tools:install] ERROR: %s\n' "$*" >&2
  exit 1
}

install_moto() {
  local dir="$cache/moto/v$MOTO_VERSION"
  if [[ -x "$dir/bin/moto_server" ]]; then
    log "moto $MOTO_VERSION: already in $dir"
    return
  fi
  command -v python3 >/dev/null || die "python3 is missing: install Python 3 to run the S3 suites"
  log "moto $MOTO_VERSION: pip install 'moto[server]==$MOTO_VERSION' into $dir"
  rm -rf "$dir.tmp"
  python3 -m venv "$dir.tmp" || die "python3 -m venv failed (Debian/Ubuntu: apt-get install python3-venv)"
  "$dir.tmp/bin/pip" install --quiet --disable-pip-version-check "moto[server]==$MOTO_VERSION"
  # A venv's scripts name its folder: build it in place, then move it (its scripts are re-pointed).
  rm -rf "$dir" && mv "$dir.tmp" "$dir"
  sed -i "1s|^#!.*$|#!$dir/bin/python3|" "$dir"/bin/moto_server "$dir"/bin/pip
  "$dir/bin/moto_server" --help >/dev/null || die "moto_server does not run from $dir"
}

install_azurite() {
  local dir="$cache/azurite/v$AZURITE_VERSION"
  if [[ -x "$dir/node_modules/.bin/azurite-blob" ]]; then
    log "azurite $AZURITE_VERSION: already in $dir"
    return
  fi
  log "azurite $AZURITE_VERSION: npm install into $dir"
  rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
  npm install --no-audit --no-fund --silent --prefix "$dir.tmp" "azurite@$AZURITE_VERSION"
  rm -rf "$dir" && mv "$dir.tmp" "$dir"
}

install_verdaccio() {
  local dir="$cache/verdaccio/v$VERDACCIO_VERSION"
  if [[ -x "$dir/node_modules/.bin/verdaccio" ]]; then
    log "verdaccio $VERDACCIO_VERSION: already in $dir"
    return
  fi
  log "verdaccio $VERDACCIO_VERSION: npm install into $dir (node-fetch held at 2.7.0)"
  rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
  cat >"$dir.tmp/package.json" <<JSON
{
  "private": true,
  "dependencies": { "verdaccio": "$VERDACCIO_VERSION" },
  "overrides": { "node-fetch": "2.7.0" }
}
JSON
  npm install --no-audit --no-fund --silent --prefix "$dir.tmp"
  rm -rf "$dir" && mv "$dir.tmp" "$dir"
  "$dir/node_modules/.bin/verdaccio" --version >/dev/null || die "verdaccio does not run from $dir"
}

install_pypiserver() {
  local dir="$cache/pypiserver/v$PYPISERVER_VERSION"
  if [[ -x "$dir/bin/pypi-server" ]]; then
    log "pypiserver $PYPISERVER_VERSION: already in $dir"
    return
  fi
  command -v python3 >/dev/null || die "python3 is missing: install Python 3 to run the registry test"
  log "pypiserver $PYPISERVER_VERSION: pip install 'pypiserver[passlib]==$PYPISERVER_VERSION' into $dir"
  rm -rf "$dir.tmp"
  python3 -m venv "$dir.tmp" || die "python3 -m venv failed (Debian/Ubuntu: apt-get install python3-venv)"
  "$dir.tmp/bin/pip" install --quiet --disable-pip-version-check "pypiserver[passlib]==$PYPISERVER_VERSION"
  rm -rf "$dir" && mv "$dir.tmp" "$dir"
  sed -i "1s|^#!.*$|#!$dir/bin/python3|" "$dir"/bin/pypi-server "$dir"/bin/pip
  "$dir/bin/pypi-server" --help >/dev/null || die "pypi-server does not run from $dir"
}

install_actionlint() {
  local dir="$cache/actionlint/v$ACTIONLINT_VERSION"
  if [[ -x "$dir/actionlint" ]]; then
    log "actionlint $ACTIONLINT_VERSION: already in $dir"
    return
  fi
  if ! command -v go >/dev/null && [[ -x /usr/local/go/bin/go ]]; then PATH="/usr/local/go/bin:$PATH"; fi
  command -v go >/dev/null || die "Go is missing: actionlint is built from the Go module proxy"
  log "actionlint $ACTIONLINT_VERSION: go install github.com/rhysd/actionlint/cmd/actionlint@v$ACTIONLINT_VERSION"
  mkdir -p "$dir"
  GOTOOLCHAIN=local GOFLAGS=-buildvcs=false CGO_ENABLED=0 GOBIN="$dir" \
    go install "github.com/rhysd/actionlint/cmd/actionlint@v$ACTIONLINT_VERSION"
  "$dir/actionlint" -version >/dev/null || die "the built actionlint does not run"
}

tools=("$@")
[[ ${#tools[@]} -gt 0 ]] || tools=(moto azurite actionlint verdaccio pypiserver)
for tool in "${tools[@]}"; do
  case "$tool" in
    moto) install_moto ;;
    azurite) install_azurite ;;
    actionlint) install_actionlint ;;
    verdaccio) install_verdaccio ;;
    pypiserver) install_pypiserver ;;
    -h | --help) sed -n '2,13p' "${BASH_SOURCE[0]}" && exit 0 ;;
    *) die "unknown tool '$tool' (moto, azurite, actionlint, verdaccio, pypiserver)" ;;
  esac
done
