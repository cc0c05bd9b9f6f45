/**
 * `pulumi-voice-platform/testing`: mocks for unit tests of programs that use this package, for
 * `pulumi.runtime.setMocks` (docs/testing-your-stacks.md). The Python SDK carries the same mocks
 * as `pulumi_voiceplatform.testing`.
 */
export { voicePlatformMocks, type VoicePlatformMockOptions } from "./mocks";
export { mockIdFormats } from "./mock-facts";
export { outputValue } from "./output-value";
