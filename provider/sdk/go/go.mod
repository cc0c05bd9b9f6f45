module pulumi-voice-platform/sdk/go

go 1.25

require github.com/pulumi/pulumi/sdk/v3 v3.248.0
