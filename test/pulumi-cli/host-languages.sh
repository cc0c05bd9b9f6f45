# Which of Pulumi's language hosts a build still needs (sourced by install.sh; no Go, so
# test/unit/pulumi-cli-hosts.test.ts runs it as it is). A build's build-info records its hosts as
# "shared (<languages>) sha256:<hash of the hosts' sources>", e.g. "shared (nodejs) sha256:1a2b":
# `npm run demo` builds the Node.js host alone, a full `npm run pulumi:install` all four.

# The languages among "nodejs python go yaml" named in "$1" (spaces or commas), in that order; fails
# naming the first unknown one.
host_languages() {
  local given=" ${1//,/ } " lang out="" word
  for word in $given; do
    case " nodejs python go yaml " in
      *" $word "*) ;;
      *)
        echo "unknown language host '$word' (nodejs, python, go, yaml)" >&2
        return 1
        ;;
    esac
  done
  for lang in nodejs python go yaml; do
    [[ "$given" == *" $lang "* ]] && out="${out:+$out }$lang"
  done
  echo "$out"
}

# hosts_to_build <build-info's language_host> <sources' sha256:hash> <wanted languages>: the wanted
# languages the build lacks, all of them when it was built from other sources or another way;
# nothing when it is complete.
hosts_to_build() {
  local built=$1 sources=$2 wanted=$3 built_langs lang out=""
  if [[ "$built" =~ ^shared\ \(([a-z ]+)\)\ (sha256:[0-9a-f]+)$ && "${BASH_REMATCH[2]}" == "$sources" ]]; then
    built_langs=" ${BASH_REMATCH[1]} "
  else
    built_langs=" "
  fi
  for lang in $wanted; do
    [[ "$built_langs" == *" $lang "* ]] || out="${out:+$out }$lang"
  done
  echo "$out"
}

# hosts_after <build-info's language_host> <sources' sha256:hash> <languages built now>: the
# languages the build holds once these are built (those of the same sources it held, and these).
hosts_after() {
  local built=$1 sources=$2 now=$3 held=""
  if [[ "$built" =~ ^shared\ \(([a-z ]+)\)\ (sha256:[0-9a-f]+)$ && "${BASH_REMATCH[2]}" == "$sources" ]]; then
    held=${BASH_REMATCH[1]}
  fi
  host_languages "$held $now"
}
