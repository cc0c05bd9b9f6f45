#!/usr/bin/env bash
# One stack of a stamp-out as a CI job deploys it, in the fewest CLI calls: select the stack
# (creating it the first time), set its config, run the package's preflight, then `pulumi up --yes`
# with its preview. Run in the environments example's folder:
#   deploy-job.sh <sub-organization>
# Environment: PREFLIGHT_BIN (the package's `pulumi-voice-platform` bin), PLATFORM_BASE_URL,
# PLATFORM_CAMPAIGNS_BASE_URL, and what `pulumi` and the program need: the backend and its
# credentials, PULUMI_CONFIG_PASSPHRASE, VOICEPLATFORM_API_KEY and SIP_PASSWORD (secrets reach the
# provider and the program through the environment, never a command line).
set -euo pipefail

sub=$1
stack=${sub//[^A-Za-z0-9_.-]/-}

pulumi stack select --create --stack "$stack" --non-interactive
pulumi config set-all --stack "$stack" --non-interactive \
  --plaintext "voiceplatform:baseUrl=$PLATFORM_BASE_URL" \
  --plaintext "voiceplatform:campaignsBaseUrl=$PLATFORM_CAMPAIGNS_BASE_URL" \
  --plaintext "voiceplatform:subOrganizationId=$sub" \
  --plaintext "voice-platform-environments:hookBaseUrl=https://hooks.example.com/$sub" \
  --plaintext "voice-platform-environments:campaignId=65a1f0c2e4b0a1b2c3d4e5f6" \
  --plaintext 'voice-platform-environments:gateways=[{"ipv4":"203.0.113.10","port":5060}]'
# Exits with preflight's status when it finds interrupted operations or a held lock.
node "$PREFLIGHT_BIN" preflight --stack "$stack"
pulumi up --yes --stack "$stack" --non-interactive
