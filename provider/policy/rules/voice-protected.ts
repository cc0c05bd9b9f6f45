import { globMatches, resourcePolicy, stackOfUrn, stringList } from "../policy-args";

export const VOICE_PROTECTED = "voice-protected";

interface Config {
  readonly stacks?: readonly string[];
}

const PRODUCTION_STACKS = [
  "prod",
  "production",
  "prod-*",
  "production-*",
  "*-prod",
  "*-production",
];

export const voiceProtected = resourcePolicy<Config>(
  {
    name: VOICE_PROTECTED,
    description:
      "A Voice is protected (`protect: true`) in the stacks that serve calls: its samples and settings are work a `pulumi destroy` or a replacement cannot give back, and the platform keeps a removed voice anyway.",
    enforcementLevel: "mandatory",
    configSchema: {
      properties: {
        stacks: stringList(
          "Stack names (`*` matches any run of characters) whose voices must be protected.",
          PRODUCTION_STACKS,
        ),
      },
    },
  },
  ["Voice"],
  ({ args, urn }, config, report) => {
    const stack = stackOfUrn(urn);
    const pattern = (config.stacks ?? PRODUCTION_STACKS).find((p) => globMatches(p, stack));
    if (pattern === undefined || args.opts.protect) return;
    report(
      `stack ${stack} matches ${pattern}, and this voice is not protected: give it the resource option protect: true`,
    );
  },
);
