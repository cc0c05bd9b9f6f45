#!/usr/bin/env bash
# One stage of the voice-platform workflow for one stack, run from the Pulumi project's folder:
#   voice-platform.sh preview   pull requests: preflight, then `pulumi preview --diff`
#   voice-platform.sh up        main: preflight, then `pulumi up --yes --diff` (with its preview)
# voice-platform.yml calls it; run it by hand with the same environment to repeat a job.
#
# Environment:
#   STACK                 organization/project/stack (required)
#   PULUMI_BACKEND_URL and the backend's credentials, PULUMI_CONFIG_PASSPHRASE: as for `pulumi`
#   VOICEPLATFORM_API_KEY up only; a preview never calls the platform and needs no key
#   CREATE_STACK=true     up only: create the stack when it does not exist (its first deployment)
#   LOCK_WAIT_SECONDS     how long to wait for another update's lock before failing (default 600)
#   GITHUB_STEP_SUMMARY   when set (GitHub Actions), the preview and each decision are added to it
#
# Exit status: 0 done; 1 an earlier run was interrupted (run the recover command printed above);
# 3 the stack stayed locked by another update; 4 the stack does not exist (see below); 5 the
# backend could not be read; anything else is the failing command's own status.
set -euo pipefail

stage="${1:-}"
[[ "$stage" == preview || "$stage" == up ]] || {
  echo "usage: voice-platform.sh preview|up" >&2
  exit 2
}
: "${STACK:?set STACK to the full stack name: organization/project/stack}"
lock_wait="${LOCK_WAIT_SECONDS:-600}"
poll_seconds=30

summary() { if [[ -n "${GITHUB_STEP_SUMMARY:-}" ]]; then printf '%s\n' "$@" >>"$GITHUB_STEP_SUMMARY"; fi; }
# A line GitHub shows on the run's page; a plain line elsewhere.
annotate() {
  local level=$1
  shift
  if [[ -n "${GITHUB_ACTIONS:-}" ]]; then echo "::$level::$*"; else echo "$level: $*"; fi
  summary "**$level**: $*"
}

# The package's own check, from the project's node_modules (npm ci installed it).
preflight() { npx --no-install pulumi-voice-platform preflight --stack "$STACK"; }

waited=0
while :; do
  status=0
  preflight || status=$?
  case "$status" in
    0) break ;;
    1)
      annotate error "An earlier run of $STACK was interrupted while creating objects (see the list above)." \
        "Find them on the platform and record them with the recover command printed above, then run this job again." \
        "A plain \`pulumi up\` would create them a second time."
      exit 1
      ;;
    3)
      if ((waited >= lock_wait)); then
        annotate error "$STACK is still locked by another update after ${waited} s (holder above)." \
          "If that run is gone (its job was cancelled or its runner died), check the platform and run" \
          "\`npx pulumi-voice-platform recover --stack $STACK --cancel-stale-lock ...\` as preflight describes; otherwise run this job again later."
        exit 3
      fi
      echo "Waiting ${poll_seconds} s for the update that holds $STACK (waited ${waited} of ${lock_wait} s)"
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
      echo "Creating stack $STACK (CREATE_STACK=true)"
      pulumi stack init "$STACK" --non-interactive
      summary "Created stack \`$STACK\`."
      ;;
    *) exit "$status" ;;
  esac
done

if [[ "$stage" == preview ]]; then
  out="$(mktemp)"
  trap 'rm -f "$out"' EXIT
  status=0
  pulumi preview --stack "$STACK" --diff --non-interactive 2>&1 | tee "$out" || status=$?
  summary "<details><summary>pulumi preview of $STACK (exit $status)</summary>" "" '```' "$(cat "$out")" '```' "</details>"
  exit "$status"
fi

# `pulumi up` runs its own preview first: an invalid input fails there, before anything is sent.
pulumi up --stack "$STACK" --yes --diff --non-interactive
summary "Deployed \`$STACK\`."
