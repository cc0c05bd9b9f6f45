/**
 * One example per resource in each language the SDKs are generated for, and YAML. Pulumi's
 * generators keep, in each SDK's docstring, only the code block of that SDK's language inside the
 * `{{% examples %}}` shortcodes, so every language's users see their own. The programs under
 * examples/ declare the same resources and run in the tests.
 */
export interface ResourceExample {
  readonly title: string;
  readonly typescript: string;
  readonly python: string;
  readonly go: string;
  readonly yaml: string;
}

/** A Go program around the body of its `pulumi.Run` function, with the SDK packages it uses. */
function goProgram(body: string, { withConfig = false } = {}): string {
  return [
    "package main",
    "",
    "import (",
    '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
    ...(withConfig ? ['\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"'] : []),
    '\t"pulumi-voice-platform/sdk/go/voiceplatform"',
    ")",
    "",
    "func main() {",
    "\tpulumi.Run(func(ctx *pulumi.Context) error {",
    ...body.split("\n").map((line) => (line === "" ? "" : `\t\t${line}`)),
    "\t})",
    "}",
  ].join("\n");
}

export const voiceExample: ResourceExample = {
  title: "A voice cloned from two samples",
  typescript: `import * as pulumi from "@pulumi/pulumi";
import * as voiceplatform from "pulumi-voice-platform-sdk";

const voice = new voiceplatform.Voice("support-voice", {
    name: "Support agent",
    supportedLocales: ["en-US", "es-ES"],
    stability: 0.5,
    files: ["samples/greeting.wav", new pulumi.asset.FileAsset("samples/closing.wav")],
});
export const voiceId = voice.voiceId;`,
  python: `import pulumi
import pulumi_voiceplatform as voiceplatform

voice = voiceplatform.Voice("support-voice",
    name="Support agent",
    supported_locales=["en-US", "es-ES"],
    stability=0.5,
    files=["samples/greeting.wav", pulumi.FileAsset("samples/closing.wav")])
pulumi.export("voiceId", voice.voice_id)`,
  go: goProgram(`voice, err := voiceplatform.NewVoice(ctx, "support-voice", &voiceplatform.VoiceArgs{
	Name:             pulumi.String("Support agent"),
	SupportedLocales: pulumi.StringArray{pulumi.String("en-US"), pulumi.String("es-ES")},
	Stability:        pulumi.Float64(0.5),
	Files:            pulumi.Array{pulumi.String("samples/greeting.wav"), pulumi.NewFileAsset("samples/closing.wav")},
})
if err != nil {
	return err
}
ctx.Export("voiceId", voice.VoiceId)
return nil`),
  yaml: `resources:
  support-voice:
    type: voiceplatform:index:Voice
    properties:
      name: Support agent
      supportedLocales: [en-US, es-ES]
      stability: 0.5
      files:
        - samples/greeting.wav
        - fn::fileAsset: samples/closing.wav
outputs:
  voiceId: \${support-voice.voiceId}`,
};

export const sipCarrierExample: ResourceExample = {
  title: "A carrier that registers, with one gateway and one number",
  typescript: `import * as pulumi from "@pulumi/pulumi";
import * as voiceplatform from "pulumi-voice-platform-sdk";

const config = new pulumi.Config();
const trunk = new voiceplatform.SipCarrier("main-trunk", {
    name: "main-trunk",
    requiresRegister: true,
    registerUsername: "acme-trunk",
    registerPassword: config.requireSecret("sipPassword"),
    gateways: [{ inbound: true, outbound: true, ipv4: "203.0.113.10", port: 5060, protocol: "udp" }],
    phoneNumbers: [{ phoneNumber: "+14155550100" }],
});
export const carrierId = trunk.carrierId;`,
  python: `import pulumi
import pulumi_voiceplatform as voiceplatform

config = pulumi.Config()
trunk = voiceplatform.SipCarrier("main-trunk",
    name="main-trunk",
    requires_register=True,
    register_username="acme-trunk",
    register_password=config.require_secret("sipPassword"),
    gateways=[voiceplatform.SipGatewayArgs(inbound=True, outbound=True, ipv4="203.0.113.10", port=5060, protocol="udp")],
    phone_numbers=[voiceplatform.SipPhoneNumberArgs(phone_number="+14155550100")])
pulumi.export("carrierId", trunk.carrier_id)`,
  go: goProgram(
    `cfg := config.New(ctx, "")
trunk, err := voiceplatform.NewSipCarrier(ctx, "main-trunk", &voiceplatform.SipCarrierArgs{
	Name:             pulumi.String("main-trunk"),
	RequiresRegister: pulumi.Bool(true),
	RegisterUsername: pulumi.String("acme-trunk"),
	RegisterPassword: cfg.RequireSecret("sipPassword"),
	Gateways: voiceplatform.SipGatewayArray{&voiceplatform.SipGatewayArgs{
		Inbound: pulumi.Bool(true), Outbound: pulumi.Bool(true),
		Ipv4: pulumi.String("203.0.113.10"), Port: pulumi.Int(5060), Protocol: pulumi.String("udp"),
	}},
	PhoneNumbers: voiceplatform.SipPhoneNumberArray{
		&voiceplatform.SipPhoneNumberArgs{PhoneNumber: pulumi.String("+14155550100")},
	},
})
if err != nil {
	return err
}
ctx.Export("carrierId", trunk.CarrierId)
return nil`,
    { withConfig: true },
  ),
  yaml: `config:
  sipPassword:
    type: string
    secret: true
resources:
  main-trunk:
    type: voiceplatform:index:SipCarrier
    properties:
      name: main-trunk
      requiresRegister: true
      registerUsername: acme-trunk
      registerPassword: \${sipPassword}
      gateways:
        - { inbound: true, outbound: true, ipv4: 203.0.113.10, port: 5060, protocol: udp }
      phoneNumbers:
        - phoneNumber: "+14155550100"
outputs:
  carrierId: \${main-trunk.carrierId}`,
};

export const campaignWebhookExample: ResourceExample = {
  title: "A webhook for the leads a campaign found interested",
  typescript: `import * as voiceplatform from "pulumi-voice-platform-sdk";

new voiceplatform.CampaignWebhook("interested-leads", {
    campaignId: "65a1f0c2e4b0a1b2c3d4e5f6",
    url: "https://hooks.example.com/voice/interested",
    events: ["POST_PROCESSING_FINISHED:INTERESTED"],
});`,
  python: `import pulumi_voiceplatform as voiceplatform

voiceplatform.CampaignWebhook("interested-leads",
    campaign_id="65a1f0c2e4b0a1b2c3d4e5f6",
    url="https://hooks.example.com/voice/interested",
    events=["POST_PROCESSING_FINISHED:INTERESTED"])`,
  go: goProgram(`_, err := voiceplatform.NewCampaignWebhook(ctx, "interested-leads", &voiceplatform.CampaignWebhookArgs{
	CampaignId: pulumi.String("65a1f0c2e4b0a1b2c3d4e5f6"),
	Url:        pulumi.String("https://hooks.example.com/voice/interested"),
	Events:     voiceplatform.WebhookEventArray{voiceplatform.WebhookEventPostProcessingFinishedInterested},
})
return err`),
  yaml: `resources:
  interested-leads:
    type: voiceplatform:index:CampaignWebhook
    properties:
      campaignId: 65a1f0c2e4b0a1b2c3d4e5f6
      url: https://hooks.example.com/voice/interested
      events: [POST_PROCESSING_FINISHED:INTERESTED]`,
};

/** The `{{% examples %}}` section of a resource's description. */
export function examplesSection(example: ResourceExample): string {
  const block = (language: string, code: string) => ["```" + language, code, "```"].join("\n");
  return [
    "{{% examples %}}",
    "## Example Usage",
    "{{% example %}}",
    `### ${example.title}`,
    "",
    block("typescript", example.typescript),
    block("python", example.python),
    block("go", example.go),
    block("yaml", example.yaml),
    "{{% /example %}}",
    "{{% /examples %}}",
  ].join("\n");
}
