/**
 * examples/plugin-typescript through the plugin, under Pulumi's Node.js language host: the shared
 * scenario (scenario.ts). The copied program runs in a project where the packed package (which
 * carries the plugin) and the generated Node.js SDK's tarball are installed. It runs against
 * answers richer than the spec's (the Python and Go scenarios run the spec's): the plugin reads
 * them, not the SDK, so the languages together cover both shapes, each language once.
 *
 * @slow about a minute
 */
import { describeScenario } from "./scenario";

describeScenario({
  language: "TypeScript",
  example: "plugin-typescript",
  answers: ["extended"],
  policyPackRemoval: true,
});
