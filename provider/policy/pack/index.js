// The voice platform's rules (docs/policies.md of pulumi-voice-platform), served to the engine:
// `pulumi preview --policy-pack <this folder>`. @pulumi/policy and pulumi-voice-platform are
// resolved from here upwards: from the project this folder is in, or from its own node_modules.
require("pulumi-voice-platform/policy").runPolicyPack();
