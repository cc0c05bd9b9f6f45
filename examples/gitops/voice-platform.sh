#!/usr/bin/env bash
# One stage of the voice-platform workflow for one stack, run from the Pulumi project's folder:
#   voice-platform.sh preview   pull requests: preflight, then `pulumi preview --diff`
#   voice-platform.sh up        main: preflight, then `pulumi up --yes --diff` (with its preview)
# voice-platform.yml calls it; run it by hand with the same environment to repeat a job.
#
# Environment (an empty value counts as not set, as GitHub passes a secret that does not exist):
#   STACK                 organization/project/stack (required)
#   PULUMI_BACKEND_URL    the state backend every job shares, with its credentials; for Pulumi
#                         Cloud leave it out and set PULUMI_ACCESS_TOKEN. One of the two is
#                         required: this script never falls back to whatever `pulumi` last
#                         logged into on this machine.
#   PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE) the stack's passphrase
#   VOICEPLATFORM_API_KEY up only; a preview never calls the platform and needs no key
#   CREATE_STACK=true     up only: create the stack when it does not exist (its first deployment)
#   LOCK_WAIT_SECONDS     how long to wait for another update's lock before failing (default 600)
#   LOCK_POLL_SECONDS     how often to look at the lock again meanwhile (default 30)
#   LOCK_STALE_MINUTES    a lock older than this cannot belong to a running job, so waiting is
#                         pointless: stop at once (default 360, the longest a job runs on a
#                         GitHub-hosted runner; set it to the job's timeout-minutes)
#   GITHUB_STEP_SUMMARY   when set (GitHub Actions), the preview and each decision are added to it
#   POLICY_PACK           the folder of a policy pack (the package's:
#                         node_modules/pulumi-voice-platform/dist/provider/policy/pack) that the
#                         preview and `up` run, with the stack as last deployed for its
#                         no-replacement rule; a mandatory violation fails them before anything
#                         is sent. Not set: no pack runs.
#
# Exit status: 0 done; 1 an earlier run was interrupted (run the recover command printed above);
# 2 refused to start (a setting is missing; nothing was read or changed); 3 the stack stayed
# locked by another update; 4 the stack does not exist (see below); 5 the backend could not be
# read; anything else is the failing command's own status.
set -euo pipefail

stage="${1:-}"
[[ "$stage" == preview || "$stage" == up ]] || {
  echo "usage: voice-platform.sh preview|up" >&2
  exit 2
}
: "${STACK:?set STACK to the full stack name: organization/project/stack}"
lock_wait="${LOCK_WAIT_SECONDS:-600}"
poll_seconds="${LOCK_POLL_SECONDS:-30}"
stale_minutes="${LOCK_STALE_MINUTES:-360}"

summary() { if [[ -n "${GITHUB_STEP_SUMMARY:-}" ]]; then printf '%s\n' "$@" >>"$GITHUB_STEP_SUMMARY"; fi; }
# A line GitHub shows on the run's page; a plain line elsewhere.
annotate() {
  local level=$1
  shift
  if [[ -n "${GITHUB_ACTIONS:-}" ]]; then echo "::$level::$*"; else echo "$level: $*"; fi
  summary "**$level**: $*"
}
refuse() {
  annotate error "$@"
  exit 2
}

# GitHub passes a secret that does not exist as an empty string, and `pulumi` takes an empty
# PULUMI_CONFIG_PASSPHRASE as the passphrase itself: unset, it asks for the real one instead.
for name in PULUMI_CONFIG_PASSPHRASE PULUMI_CONFIG_PASSPHRASE_FILE PULUMI_BACKEND_URL PULUMI_ACCESS_TOKEN POLICY_PACK; do
  if [[ -z "${!name:-}" ]]; then unset "$name"; fi
done
if [[ -z "${PULUMI_BACKEND_URL:-}" && -z "${PULUMI_ACCESS_TOKEN:-}" ]]; then
  refuse "No state backend: set PULUMI_BACKEND_URL (s3://, azblob://, postgres://, gs://) with its credentials," \
    "or PULUMI_ACCESS_TOKEN for Pulumi Cloud. Without either, pulumi would use whatever this machine last logged into," \
    "where $STACK does not exist, and a new stack there would create every object a second time."
fi
if [[ -n "${POLICY_PACK:-}" && ! -d "$POLICY_PACK" ]]; then
  refuse "POLICY_PACK is $POLICY_PACK, which is no folder in $PWD. For the package's pack, install it with" \
    "npm ci (pulumi-voice-platform, and @pulumi/policy among the devDependencies: docs/policies.md)."
fi
on_pulumi_cloud() { [[ -z "${PULUMI_BACKEND_URL:-}" || "$PULUMI_BACKEND_URL" =~ ^https?:// ]]; }

# The package's own check, from the project's node_modules (npm ci installed it).
preflight() { npx --no-install pulumi-voice-platform preflight --stack "$STACK"; }

# Minutes since the newest lock preflight lists was taken; nothing when no lock shows its time
# (Pulumi Cloud says only that an update is in progress).
lock_age_minutes() {
  node -e '
    const text = require("fs").readFileSync(0, "utf8");
    const times = [...text.matchAll(/locked [^(\n]* ago \(([0-9T:.Z-]+)\)/g)].map((m) => Date.parse(m[1]));
    if (times.length > 0) console.log(Math.floor((Date.now() - Math.max(...times)) / 60000));
  ' <<<"$1"
}

# The first holder preflight lists, for the one line each poll prints.
lock_holder() { grep -m1 '^  - ' <<<"$1" | sed -e 's/^  - //' -e 's/, whether it still runs.*$//' || true; }

# What to do about a lock whose holder is gone; this script never removes a lock it did not take.
explain_stale_lock() {
  cat <<EOF
How to clear a lock whose run is gone (this job never removes a lock it did not take):
  1. Make sure no run of $STACK is still going: no job of this workflow for it is running, and the
     lock's host (above) is not a runner still at work on it.
  2. If preflight listed interrupted operations above, run the recover command it printed, with
     --cancel-stale-lock: it records them and releases the lock.
  3. Otherwise release the lock with \`pulumi cancel --stack $STACK --yes\`, with this job's
     backend settings and credentials.
Then run this job again.
EOF
}

# The committed Pulumi.<stack>.yaml of a stack not created yet: its secrets, encrypted before the
# stack existed (README, "The one-time first run"), say how the new stack must encrypt them.
stack_file="Pulumi.${STACK##*/}.yaml"
committed_provider() {
  if [[ -f "$stack_file" ]]; then sed -n 's/^secretsprovider: *//p' "$stack_file" | head -n 1; fi
}
committed_salt() { grep -qs '^encryptionsalt:' "$stack_file"; }

# `pulumi stack init` with the committed file's secrets provider: its passphrase salt, or its KMS
# key; otherwise the backend's default (the passphrase, or Pulumi Cloud's own key).
create_stack() {
  local provider
  provider="$(committed_provider)"
  if [[ -z "$provider" ]] && committed_salt; then provider=passphrase; fi
  if [[ "$provider" == passphrase || (-z "$provider" && ! on_pulumi_cloud) ]]; then
    [[ -n "${PULUMI_CONFIG_PASSPHRASE:-}${PULUMI_CONFIG_PASSPHRASE_FILE:-}" ]] ||
      refuse "Creating $STACK needs the passphrase its secrets are encrypted with: set PULUMI_CONFIG_PASSPHRASE" \
        "(the production environment's secret), or name a secrets provider in $stack_file. Nothing was created."
  fi
  echo "Creating stack $STACK (CREATE_STACK=true)"
  pulumi stack init "$STACK" --non-interactive ${provider:+--secrets-provider "$provider"}
  summary "Created stack \`$STACK\`."
}

waited=0
report_shown=false
while :; do
  status=0
  report="$(preflight 2>&1)" || status=$?
  if [[ "$status" != 3 ]]; then
    printf '%s\n' "$report"
  elif [[ "$report_shown" == false ]]; then
    printf '%s\n' "$report"
    report_shown=true
  fi
  case "$status" in
    0) break ;;
    1)
      annotate error "An earlier run of $STACK was interrupted while creating objects (see the list above)." \
        "Find them on the platform and record them with the recover command printed above, then run this job again." \
        "A plain \`pulumi up\` would create them a second time."
      exit 1
      ;;
    3)
      age="$(lock_age_minutes "$report")"
      if [[ -n "$age" ]] && ((age >= stale_minutes)); then
        annotate error "$STACK has been locked for ${age} min, longer than any run of this job lasts (LOCK_STALE_MINUTES=$stale_minutes):" \
          "the run that took the lock is gone, and waiting will not release it."
        explain_stale_lock
        exit 3
      fi
      if ((waited >= lock_wait)); then
        annotate error "$STACK is still locked by another update after ${waited} s (holder above)." \
          "If that run is gone (its job was cancelled or its runner died), clear the lock as below; otherwise run this job again later."
        explain_stale_lock
        exit 3
      fi
      echo "Still locked by $(lock_holder "$report"); waited ${waited} of ${lock_wait} s"
      sleep "$poll_seconds"
      waited=$((waited + poll_seconds))
      ;;
    4)
      if [[ "$stage" == preview ]]; then
        annotate notice "Stack $STACK does not exist yet: nothing to preview against." \
          "Its first deployment creates it (run the workflow by hand with 'create the stack' on main)."
        exit 0
      fi
      if [[ "${CREATE_STACK:-}" != true ]]; then
        annotate error "Stack $STACK does not exist on the backend." \
          "For its first deployment, run the workflow by hand on main with 'create the stack' ticked." \
          "On any later run this means the stack's name or backend changed: a new stack would create every object again."
        exit 4
      fi
      create_stack
      ;;
    *) exit "$status" ;;
  esac
done

# The policy pack, when POLICY_PACK names one: its no-replacement rule compares the program with
# the stack as last deployed (exported with its secrets still encrypted).
out="$(mktemp)"
previous="$(mktemp)"
trap 'rm -f "$out" "$previous"' EXIT
policy=()
if [[ -n "${POLICY_PACK:-}" ]]; then
  pulumi stack export --stack "$STACK" --file "$previous"
  export VOICEPLATFORM_PREVIOUS_STATE="$previous"
  policy=(--policy-pack "$POLICY_PACK")
fi

if [[ "$stage" == preview ]]; then
  status=0
  pulumi preview --stack "$STACK" --diff --non-interactive ${policy[@]+"${policy[@]}"} 2>&1 | tee "$out" || status=$?
  summary "<details><summary>pulumi preview of $STACK (exit $status)</summary>" "" '```' "$(cat "$out")" '```' "</details>"
  exit "$status"
fi

# `pulumi up` runs its own preview first: an invalid input fails there, before anything is sent.
pulumi up --stack "$STACK" --yes --diff --non-interactive ${policy[@]+"${policy[@]}"}
summary "Deployed \`$STACK\`."
