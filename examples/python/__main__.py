"""One cloned voice, one SIP carrier and one campaign webhook, declared with the generated
Python SDK. The plugin pulumi-resource-voiceplatform must be on PATH
(docs/installation-configuration.md). Stack config:

  voiceplatform:apiKey   the platform's API key (secret); VOICEPLATFORM_BASE_URL and friends
                         give the addresses
  sipPassword            the carrier's registration password (secret)
  voiceName              the voice's display name; a change updates the voice in place
  carrierPort            the gateway's SIP port; a change replaces the carrier (it has no update)
  adoptCarrierId         id of a carrier made outside Pulumi: it is imported, not created
"""

import pulumi
import pulumi_voiceplatform as voiceplatform

config = pulumi.Config()

# Paths are relative to this project's directory, so the state is the same on every machine.
voice = voiceplatform.Voice(
    "support-voice",
    name=config.get("voiceName") or "Support agent",
    description="Calm, friendly voice for the support line",
    provider_type="ELEVENLABS",
    supported_locales=["en-US", "es-ES"],
    stability=0.5,
    similarity_boost=0.75,
    files=["samples/greeting.wav", pulumi.FileAsset("samples/closing.wav")],
)

carrier = voiceplatform.SipCarrier(
    "main-trunk",
    name="main-trunk",
    requires_register=True,
    register_username="acme-trunk",
    register_password=config.require_secret("sipPassword"),
    register_sip_realm="sip.carrier.example.com",
    gateways=[
        voiceplatform.SipGatewayArgs(
            inbound=True,
            outbound=True,
            ipv4="203.0.113.10",
            port=config.get_int("carrierPort") or 5060,
            protocol="udp",
        )
    ],
    phone_numbers=[voiceplatform.SipPhoneNumberArgs(phone_number="+14155550100")],
)

webhook = voiceplatform.CampaignWebhook(
    "interested-leads",
    campaign_id="65a1f0c2e4b0a1b2c3d4e5f6",
    url="https://hooks.example.com/voice/interested",
    events=["POST_PROCESSING_FINISHED:INTERESTED"],
)

adopt_id = config.get("adoptCarrierId")
if adopt_id:
    # The API cannot read a carrier back: the declared inputs are recorded as they are.
    adopted = voiceplatform.SipCarrier(
        "adopted-trunk",
        name="legacy-trunk",
        gateways=[voiceplatform.SipGatewayArgs(outbound=True, ipv4="198.51.100.20", port=5060)],
        opts=pulumi.ResourceOptions(import_=adopt_id),
    )
    pulumi.export("adoptedCarrierId", adopted.id)

pulumi.export("voiceId", voice.voice_id)
pulumi.export("carrierId", carrier.id)
pulumi.export("webhookId", webhook.id)
