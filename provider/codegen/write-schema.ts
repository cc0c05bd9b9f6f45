/**
 * `npm run schema -- [file]`: writes the package schema as JSON to the file, or to stdout.
 * SDK generation reads it (`pulumi package gen-sdk <file>`).
 */
import { writeFileSync } from "node:fs";
import { packageSchema } from "../schema/package-schema";

const text = `${JSON.stringify(packageSchema(), null, 2)}\n`;
const target = process.argv[2];
if (target === undefined) process.stdout.write(text);
else writeFileSync(target, text);
