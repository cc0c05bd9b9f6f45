/**
 * examples/plugin-typescript through the plugin, under Pulumi's Node.js language host: the shared
 * scenario (scenario.ts). The copied program runs in a project where the packed package (which
 * carries the plugin) and the generated Node.js SDK's tarball are installed. The one language that
 * also runs it against answers richer than the spec's: the plugin reads them, not the SDK.
 *
 * @slow over a minute: the scenario twice, for both answer shapes
 */
import { describeScenario } from "./scenario";

describeScenario({
  language: "TypeScript",
  example: "plugin-typescript",
  answers: ["spec", "extended"],
});
