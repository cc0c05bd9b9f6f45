#!/usr/bin/env bash
# Builds the Pulumi CLI from source with the Go toolchain and the Go module proxy (the vendor's
# download site is not reachable from our machines), at the version the tests use, and puts
# Pulumi's own language hosts beside it.
# Usage: npm run pulumi:install [-- --force | --print-version | --languages=nodejs,...]
#
# Output: <cache>/v<version>/bin/, a toolchain cache outside the repository, keyed by version, so
# every clone and CI run on the machine reuses one build. <cache> is $VOICEPLATFORM_PULUMI_CLI_CACHE,
# else ${XDG_CACHE_HOME:-~/.cache}/pulumi-voice-platform/pulumi-cli.
#   pulumi                          the CLI, github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
#   pulumi-language-{nodejs,python,go,yaml}
#                                   Pulumi's own language hosts, built by
#                                   ../shared/pulumi-language-hosts/build.sh when that folder is
#                                   beside the repository; else Pulumi's Node.js host from the module
#                                   proxy at the release commit; else, and only then, the minimal
#                                   host in test/pulumi-cli/langhost, with a warning
#   pulumi-resource-pulumi-nodejs   launcher for @pulumi/pulumi/cmd/dynamic-provider
#   pulumi-converter-yaml           the converter `pulumi convert --from yaml` runs,
#                                   github.com/pulumi/pulumi-yaml/cmd/pulumi-converter-yaml from the
#                                   module proxy, at the YAML host's release
# --languages=LIST (e.g. nodejs, as `npm run demo` asks) builds only those of Pulumi's hosts, and
# the converter only with yaml; the build records which (build-info), so a later run that wants
# more builds the rest (test/pulumi-cli/host-languages.sh). The default is all four.
# The generated wrapper Go module lives in <cache>/build/v<version>/.
#
# The version: PULUMI_CLI_VERSION when set, else `config.pulumiCli` in package.json, the one
# setting tests and CI take it from (test/pulumi-cli/locate.ts reads the same two).
# --print-version prints it and builds nothing; --newest-version prints the newest release the Go
# module proxy serves (one query to the proxy), for a notice that the setting is behind.
# Environment: PULUMI_CLI_VERSION (see above); PULUMI_CLI_FORCE=1 (or --force) rebuilds even when
# a matching build exists.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo_root"

t0=$SECONDS
step_t0=$SECONDS
log() { printf '[pulumi:install %4ds] %s\n' "$((SECONDS - t0))" "$*"; }
step() {
  step_t0=$SECONDS
  log "$*"
}
step_done() { log "  done in $((SECONDS - step_t0))s${1:+: $1}"; }
die() {
  printf '[pulumi:install] ERROR: %s\n' "$*" >&2
  exit 1
}

force="${PULUMI_CLI_FORCE:-}"
print_version=""
newest_version=""
languages_arg="nodejs python go yaml"
for arg in "$@"; do
  case "$arg" in
    --force) force=1 ;;
    --print-version) print_version=1 ;;
    --newest-version) newest_version=1 ;;
    --languages=*) languages_arg="${arg#--languages=}" ;;
    -h | --help)
      sed -n '2,32p' "${BASH_SOURCE[0]}"
      exit 0
      ;;
    *) die "unknown argument: $arg (--force, --print-version, --newest-version and --languages=LIST are accepted)" ;;
  esac
done
source "$repo_root/test/pulumi-cli/host-languages.sh"
wanted_langs="$(host_languages "$languages_arg")" || die "--languages: see above"
[[ -n "$wanted_langs" ]] || die "--languages names no language host (nodejs, python, go, yaml)"
wants_yaml() { [[ " $wanted_langs " == *" yaml "* ]]; }

# --- prerequisites -------------------------------------------------------------------------------
command -v node >/dev/null 2>&1 || die "node is not on PATH."

version="${PULUMI_CLI_VERSION:-}"
version_from="PULUMI_CLI_VERSION"
if [[ -z "$version" ]]; then
  version="$(node -p "(require('./package.json').config || {}).pulumiCli || ''")"
  version_from="config.pulumiCli in package.json"
fi
version="$(echo "$version" | tr -d '[:space:]')"
version="${version#v}"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
  die "$version_from must be a Pulumi CLI version such as 3.274.1 (got '$version')."
if [[ -n "$print_version" ]]; then
  echo "$version"
  exit 0
fi

cache_root="${VOICEPLATFORM_PULUMI_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-voice-platform/pulumi-cli}"
out_dir="$cache_root/v$version"
bin_dir="$out_dir/bin"
build_dir="$cache_root/build/v$version"
# Pulumi's Node.js, Python, Go and YAML hosts, kept as sources beside the repository.
shared_hosts="$repo_root/../shared/pulumi-language-hosts"
pkg_mod="github.com/pulumi/pulumi/pkg/v3"
sdk_mod="github.com/pulumi/pulumi/sdk/v3"
lh_mod="github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3"

[[ -n "$newest_version" ]] || log "Pulumi CLI v$version -> $bin_dir"

write_launcher() {
  # Same job as sdk/nodejs/dist/pulumi-resource-pulumi-nodejs in Pulumi's repo: run the dynamic
  # provider of the @pulumi/pulumi that Node resolves from the working directory (the project).
  cat >"$bin_dir/pulumi-resource-pulumi-nodejs.tmp" <<'EOF'
#!/bin/sh
# Generated by test/pulumi-cli/install.sh: starts @pulumi/pulumi's Node.js dynamic provider,
# resolved from the current directory (the Pulumi project), with the engine's arguments.
script=$(node -e "process.stdout.write(require.resolve('@pulumi/pulumi/cmd/dynamic-provider'))") || {
  echo "pulumi-resource-pulumi-nodejs: cannot resolve @pulumi/pulumi/cmd/dynamic-provider from $(pwd)" >&2
  exit 1
}
exec node "$script" "$@"
EOF
  chmod +x "$bin_dir/pulumi-resource-pulumi-nodejs.tmp"
  mv -f "$bin_dir/pulumi-resource-pulumi-nodejs.tmp" "$bin_dir/pulumi-resource-pulumi-nodejs"
}

files_id() { # <label> <file>...: the label and the sha256 of the files' contents
  local label=$1
  shift
  node -e 'const c = require("crypto"), fs = require("fs"), h = c.createHash("sha256");
    for (const f of process.argv.slice(2)) h.update(fs.readFileSync(f));
    process.stdout.write(process.argv[1] + " sha256:" + h.digest("hex").slice(0, 16))' "$label" "$@"
}
minimal_host_id() { files_id minimal "$repo_root/test/pulumi-cli/langhost/main.go"; }
shared_sources_id() { # sha256:<hash> of the shared hosts' sources, whichever languages are built
  local id
  id="$(files_id shared "$shared_hosts/build.sh" "$shared_hosts"/*/go.mod)"
  echo "${id#shared }"
}
info_file="$out_dir/build-info"
have_shared=""
[[ -x "$shared_hosts/build.sh" || -f "$shared_hosts/build.sh" ]] && have_shared=1

# --- Go environment ------------------------------------------------------------------------------
use_go() {
  if ! command -v go >/dev/null 2>&1 && [[ -x /usr/local/go/bin/go ]]; then
    PATH="/usr/local/go/bin:$PATH" # the official tarball's place, often missing from non-login shells
  fi
  command -v go >/dev/null 2>&1 || die "Go is not installed or not on PATH. Building the Pulumi CLI from source needs Go >= 1.25
  (e.g. the official tarball in /usr/local/go with /usr/local/go/bin on PATH, or 'apt-get install golang-go'
  if Debian's version is new enough). Then re-run: npm run pulumi:install"
  log "Using $(command -v go) ($(go version | cut -d' ' -f3-))"
  export GOTOOLCHAIN=local # never download another toolchain (only the module proxy is reachable)
  export CGO_ENABLED=0     # as Pulumi's release builds
  # -mod=mod: the wrapper module's go.mod/go.sum are generated and may be updated by the go command.
  # -buildvcs=false: never stamp the status of whatever git work tree the build sits in.
  export GOFLAGS="-mod=mod -buildvcs=false"
}

if [[ -n "$newest_version" ]]; then
  use_go >/dev/null
  newest="$(cd "$(mktemp -d)" && go list -m -f '{{.Version}}' "github.com/pulumi/pulumi/pkg/v3@latest")" ||
    die "could not ask the Go module proxy ($(go env GOPROXY)) for the newest Pulumi release."
  echo "${newest#v}"
  exit 0
fi

# build_shared_hosts <languages> <the build's language_host before>: Pulumi's own hosts from
# ../shared; returns non-zero when not there.
build_shared_hosts() {
  [[ -n "$have_shared" ]] || return 1
  local sources
  sources="$(shared_sources_id)"
  step "Building Pulumi's language hosts ($1) from ${shared_hosts#"$repo_root"/}" \
    "(YAML takes 2-3 minutes the first time)"
  bash "$shared_hosts/build.sh" "$bin_dir" $1 || die "building the language hosts failed (see above)"
  host_id="shared ($(hosts_after "$2" "$sources" "$1")) $sources"
  step_done "$host_id"
}

# --- the YAML converter ----------------------------------------------------------------------------
# `pulumi convert --from yaml` runs the plugin pulumi-converter-yaml, which lives in the same module
# as the YAML host. Built in a wrapper module of its own (the module proxy serves pulumi-yaml; its
# go.mod holds no replace directives), pinned by the shared YAML host's go.mod and go.sum when
# those are there, so both come from one dependency set. ~45 s the first time, then cached here.
yaml_release="v1.38.0"
yaml_mod="github.com/pulumi/pulumi-yaml"
converter_current() {
  [[ -x "$bin_dir/pulumi-converter-yaml" &&
    "$(cat "$bin_dir/pulumi-converter-yaml.version" 2>/dev/null)" == "$yaml_release" ]]
}
build_converter() {
  step "Building pulumi-converter-yaml ($yaml_mod $yaml_release, for \`pulumi convert\`)"
  local dir="$build_dir/converter-yaml"
  rm -rf "$dir"
  mkdir -p "$dir" "$bin_dir"
  {
    echo "// Generated by test/pulumi-cli/install.sh."
    echo "//go:build tools"
    echo
    echo "package tools"
    echo
    echo "import _ \"$yaml_mod/cmd/pulumi-converter-yaml\""
  } >"$dir/tools.go"
  if [[ -f "$shared_hosts/yaml/go.mod" && -f "$shared_hosts/yaml/go.sum" ]] &&
    grep -q "$yaml_mod $yaml_release" "$shared_hosts/yaml/go.mod"; then
    sed 's/^module .*/module converter-yaml-build/' "$shared_hosts/yaml/go.mod" >"$dir/go.mod"
    cp "$shared_hosts/yaml/go.sum" "$dir/go.sum"
  else
    printf 'module converter-yaml-build\n\ngo 1.25\n\nrequire %s %s\n' "$yaml_mod" "$yaml_release" >"$dir/go.mod"
    (cd "$dir" && go mod tidy) || die "go mod tidy failed for $yaml_mod@$yaml_release in $dir"
  fi
  (cd "$dir" && GONOSUMDB="${GONOSUMDB:+$GONOSUMDB,}github.com/pulumi" go build -trimpath \
    -ldflags "-X $yaml_mod/pkg/version.Version=$yaml_release" \
    -o "$bin_dir/pulumi-converter-yaml.tmp" "$yaml_mod/cmd/pulumi-converter-yaml") ||
    die "go build of $yaml_mod/cmd/pulumi-converter-yaml failed (see the messages above)"
  mv -f "$bin_dir/pulumi-converter-yaml.tmp" "$bin_dir/pulumi-converter-yaml"
  echo "$yaml_release" >"$bin_dir/pulumi-converter-yaml.version"
  step_done
}
ensure_converter() { # only for a build that wants the YAML host
  wants_yaml || return 0
  converter_current && return 0
  use_go
  build_converter
}

write_info() {
  printf 'version=v%s\nlanguage_host=%s\ngo=%s\n' "$version" "$host_id" "$(go env GOVERSION)" >"$info_file"
}

# --- reuse an existing build ---------------------------------------------------------------------
if [[ -z "$force" && -x "$bin_dir/pulumi" ]]; then
  step "Checking the existing build"
  have="$(PULUMI_SKIP_UPDATE_CHECK=true "$bin_dir/pulumi" version 2>/dev/null || true)"
  built_host="$(sed -n 's/^language_host=//p' "$info_file" 2>/dev/null || true)"
  want_host="$built_host"
  if [[ -n "$have_shared" ]]; then
    missing_langs="$(hosts_to_build "$built_host" "$(shared_sources_id)" "$wanted_langs")"
    [[ -x "$bin_dir/pulumi-language-nodejs" ]] || missing_langs="$wanted_langs"
    [[ -z "$missing_langs" ]] || want_host="shared (+$missing_langs)"
  fi
  [[ "$built_host" == minimal* && -z "$have_shared" ]] && want_host="$(minimal_host_id)"
  if [[ "$have" != "v$version" ]]; then
    log "  existing pulumi reports '${have:-<nothing>}', expected v$version: rebuilding"
  elif [[ -n "$built_host" && "$built_host" == "$want_host" && -x "$bin_dir/pulumi-language-nodejs" ]]; then
    write_launcher
    step_done "pulumi version = $have, language hosts: $built_host"
    ensure_converter
    log "Already built; nothing to do (use --force to rebuild). Total $((SECONDS - t0))s."
    log "Use it with: export PATH=\"$bin_dir:\$PATH\""
    exit 0
  elif [[ -n "$have_shared" ]]; then
    log "  pulumi $have is current; the language hosts are not ('${built_host:-<none>}'; to build: $missing_langs)"
    use_go
    build_shared_hosts "$missing_langs" "$built_host"
    write_launcher
    write_info
    ensure_converter
    log "Language hosts rebuilt in $((SECONDS - t0))s. Use it with: export PATH=\"$bin_dir:\$PATH\""
    exit 0
  else
    log "  the language host is missing from $info_file or its source changed: rebuilding"
  fi
fi

use_go
go_json_field() { # <field path, e.g. Origin.Hash> reads `go ... -json` output on stdin
  node -e '
    let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      let v; try { v = JSON.parse(s); } catch { v = undefined; }
      for (const k of process.argv[1].split(".")) v = v == null ? undefined : v[k];
      process.stdout.write(v == null ? "" : String(v));
    });' "$1"
}

tmp_dir="$(mktemp -d)"
trap 'rm -rf "$tmp_dir"' EXIT

# --- 1. resolve the release ----------------------------------------------------------------------
step "1/5 Resolving $pkg_mod@v$version on the Go module proxy ($(go env GOPROXY))"
nosumdb=""
download() { # <module@query>: sets dl_json (go's JSON) and dl_err (empty on success)
  dl_json="$(cd "$tmp_dir" && GOFLAGS=-buildvcs=false go mod download -json "$1" 2>"$tmp_dir/stderr")" || true
  dl_err="$(go_json_field Error <<<"$dl_json")"
  [[ -n "$dl_json" ]] || dl_err="$(cat "$tmp_dir/stderr")"
  dl_err="${dl_err%%$'\n'*}"
  if [[ -z "$nosumdb" && "$dl_err" == *verifying* && "$dl_err" == *sum.golang.org* ]]; then
    # The checksum database reachable here may lack Pulumi's modules (seen on our machines: 404
    # for pkg/v3). Their hashes are then recorded in the wrapper's go.sum on first download.
    log "  the checksum database has no entry for $1; fetching Pulumi's modules without it" \
      "(GONOSUMDB=github.com/pulumi/pulumi)"
    export GONOSUMDB="${GONOSUMDB:+$GONOSUMDB,}github.com/pulumi/pulumi"
    nosumdb=1
    download "$1"
  fi
}
download "$pkg_mod@v$version"
[[ -z "$dl_err" && -n "$(go_json_field Dir <<<"$dl_json")" ]] ||
  die "cannot download $pkg_mod@v$version: $dl_err"
commit="$(go_json_field Origin.Hash <<<"$dl_json")"
need_go="$(sed -n 's/^go \([0-9][0-9.]*\).*/\1/p' "$(go_json_field GoMod <<<"$dl_json")")"
have_go="$(go env GOVERSION)"
have_go="${have_go#go}"
if [[ -n "$need_go" && "$(printf '%s\n%s\n' "$need_go" "$have_go" | sort -V | head -n1)" != "$need_go" ]]; then
  die "$pkg_mod@v$version needs Go >= $need_go, but $(command -v go) is go$have_go (GOTOOLCHAIN=local: no toolchain download). Install a newer Go."
fi
step_done "release commit ${commit:-<unknown: the proxy sent no Origin>}; needs Go >= ${need_go:-?}"

# --- 2. language host ----------------------------------------------------------------------------
lh_version=""
lh_err="no release commit known"
if [[ -n "$have_shared" ]]; then
  step "2/5 Language hosts ($wanted_langs): built from ${shared_hosts#"$repo_root"/} after the CLI"
  lh_err=""
  step_done
elif [[ -n "$commit" ]]; then
  step "2/5 Looking for Pulumi's Node.js language host ($lh_mod) at that commit"
  download "$lh_mod@$commit"
  lh_err="$dl_err"
  [[ -n "$lh_err" ]] || lh_version="$(go_json_field Version <<<"$dl_json")"
fi
if [[ -n "$have_shared" ]]; then
  :
elif [[ -n "$lh_version" ]]; then
  step_done "using $lh_mod@$lh_version"
else
  step_done "not available ($lh_err)"
  log "WARNING: neither ../shared/pulumi-language-hosts nor the module proxy has Pulumi's Node.js host:"
  log "WARNING: using the MINIMAL host in test/pulumi-cli/langhost, a stand-in (see its README)."
fi

# --- 3. wrapper module ---------------------------------------------------------------------------
step "3/5 Generating the wrapper module in $build_dir and resolving dependencies (go mod tidy)"
mkdir -p "$build_dir" "$bin_dir"
rm -rf "$build_dir/langhost"
{
  echo "// Generated by test/pulumi-cli/install.sh; not part of the repository."
  echo "module pulumi-cli-build"
  echo
  echo "go 1.25"
  echo
  echo "require ("
  echo "	$pkg_mod v$version"
  echo "	$sdk_mod v$version"
  [[ -n "$lh_version" ]] && echo "	$lh_mod $lh_version"
  echo ")"
} >"$build_dir/go.mod"
{
  echo "// Generated by test/pulumi-cli/install.sh."
  echo "//go:build tools"
  echo
  echo "package tools"
  echo
  echo "import ("
  echo "	_ \"$pkg_mod/cmd/pulumi\""
  [[ -n "$lh_version" ]] && echo "	_ \"$lh_mod\""
  echo ")"
} >"$build_dir/tools.go"
if [[ -z "$lh_version" && -z "$have_shared" ]]; then
  mkdir -p "$build_dir/langhost"
  cp "$repo_root/test/pulumi-cli/langhost/main.go" "$build_dir/langhost/main.go"
fi
mod_before="$(du -sm "$(go env GOMODCACHE)" 2>/dev/null | cut -f1 || echo 0)"
(cd "$build_dir" && go mod tidy) || die "go mod tidy failed in $build_dir (see the messages above)"
mod_after="$(du -sm "$(go env GOMODCACHE)" 2>/dev/null | cut -f1 || echo 0)"
step_done "Go module cache $(go env GOMODCACHE): ${mod_before} MB -> ${mod_after} MB"

# --- 4. build ------------------------------------------------------------------------------------
ldflags="-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$version"
build() { # <output name> <package>
  (cd "$build_dir" && go build -trimpath -tags osusergo,grpcnotrace -ldflags "$ldflags" \
    -o "$bin_dir/$1.tmp" "$2") || die "go build of $2 failed (see the messages above)"
}
step "4/5 Building pulumi (about 7 minutes on 2 cores with an empty Go build cache)"
build pulumi "$pkg_mod/cmd/pulumi"
step_done
if ! build_shared_hosts "$wanted_langs" ""; then
  step "5/5 Building pulumi-language-nodejs"
  if [[ -n "$lh_version" ]]; then
    build pulumi-language-nodejs "$lh_mod"
    host_id="$lh_mod@$lh_version"
  else
    build pulumi-language-nodejs ./langhost
    host_id="$(minimal_host_id)"
  fi
  mv -f "$bin_dir/pulumi-language-nodejs.tmp" "$bin_dir/pulumi-language-nodejs"
  step_done "language host: $host_id"
fi
if wants_yaml; then build_converter; fi
mv -f "$bin_dir/pulumi.tmp" "$bin_dir/pulumi" # last: its presence marks a complete build
write_launcher
write_info

have="$(PULUMI_SKIP_UPDATE_CHECK=true "$bin_dir/pulumi" version)"
[[ "$have" == "v$version" ]] || die "the built pulumi reports version '$have', expected v$version"
log "Built pulumi $have in $((SECONDS - t0))s; $(du -sh "$bin_dir" | cut -f1) in $bin_dir."
log "Use it with: export PATH=\"$bin_dir:\$PATH\""
