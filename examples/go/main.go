// One cloned voice, one SIP carrier and one campaign webhook, declared with the generated Go SDK.
// The plugin pulumi-resource-voiceplatform must be on PATH (docs/installation-configuration.md).
// The same stack config as examples/python: voiceName, carrierPort, adoptCarrierId, sipPassword.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"

	"pulumi-voice-platform/sdk/go/voiceplatform"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		voiceName := cfg.Get("voiceName")
		if voiceName == "" {
			voiceName = "Support agent"
		}
		carrierPort := cfg.GetInt("carrierPort")
		if carrierPort == 0 {
			carrierPort = 5060
		}

		// Paths are relative to the project directory, so the state is the same on every machine.
		voice, err := voiceplatform.NewVoice(ctx, "support-voice", &voiceplatform.VoiceArgs{
			Name:             pulumi.String(voiceName),
			Description:      pulumi.String("Calm, friendly voice for the support line"),
			ProviderType:     pulumi.String("ELEVENLABS"),
			SupportedLocales: pulumi.StringArray{pulumi.String("en-US"), pulumi.String("es-ES")},
			Stability:        pulumi.Float64(0.5),
			SimilarityBoost:  pulumi.Float64(0.75),
			Files: pulumi.Array{
				pulumi.String("samples/greeting.wav"),
				pulumi.NewFileAsset("samples/closing.wav"),
			},
		})
		if err != nil {
			return err
		}

		carrier, err := voiceplatform.NewSipCarrier(ctx, "main-trunk", &voiceplatform.SipCarrierArgs{
			Name:             pulumi.String("main-trunk"),
			RequiresRegister: pulumi.Bool(true),
			RegisterUsername: pulumi.String("acme-trunk"),
			RegisterPassword: cfg.RequireSecret("sipPassword"),
			RegisterSipRealm: pulumi.String("sip.carrier.example.com"),
			Gateways: voiceplatform.SipGatewayArray{
				&voiceplatform.SipGatewayArgs{
					Inbound:  pulumi.Bool(true),
					Outbound: pulumi.Bool(true),
					Ipv4:     pulumi.String("203.0.113.10"),
					Port:     pulumi.Int(carrierPort),
					Protocol: pulumi.String("udp"),
				},
			},
			PhoneNumbers: voiceplatform.SipPhoneNumberArray{
				&voiceplatform.SipPhoneNumberArgs{PhoneNumber: pulumi.String("+14155550100")},
			},
		})
		if err != nil {
			return err
		}

		webhook, err := voiceplatform.NewCampaignWebhook(ctx, "interested-leads", &voiceplatform.CampaignWebhookArgs{
			CampaignId: pulumi.String("65a1f0c2e4b0a1b2c3d4e5f6"),
			Url:        pulumi.String("https://hooks.example.com/voice/interested"),
			Events:     voiceplatform.WebhookEventArray{voiceplatform.WebhookEventPostProcessingFinishedInterested},
		})
		if err != nil {
			return err
		}

		if adoptID := cfg.Get("adoptCarrierId"); adoptID != "" {
			// The API cannot read a carrier back: the declared inputs are recorded as they are.
			adopted, err := voiceplatform.NewSipCarrier(ctx, "adopted-trunk", &voiceplatform.SipCarrierArgs{
				Name: pulumi.String("legacy-trunk"),
				Gateways: voiceplatform.SipGatewayArray{
					&voiceplatform.SipGatewayArgs{
						Outbound: pulumi.Bool(true),
						Ipv4:     pulumi.String("198.51.100.20"),
						Port:     pulumi.Int(5060),
					},
				},
			}, pulumi.Import(pulumi.ID(adoptID)))
			if err != nil {
				return err
			}
			ctx.Export("adoptedCarrierId", adopted.ID())
		}

		ctx.Export("voiceId", voice.VoiceId)
		ctx.Export("carrierId", carrier.ID())
		ctx.Export("webhookId", webhook.ID())
		return nil
	})
}
