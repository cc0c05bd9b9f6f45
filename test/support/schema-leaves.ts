import { z } from "zod";

/** Every leaf a zod object schema accepts, by path (`gateways[].port`, `settings.speed`). */
export function schemaLeaves(schema: z.ZodType, prefix = ""): string[] {
  let inner = schema;
  let list = false;
  for (;;) {
    if (inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
    else if (inner instanceof z.ZodArray) {
      inner = inner.element as z.ZodType;
      list = true;
    } else break;
  }
  if (!(inner instanceof z.ZodObject)) return [prefix];
  const at = list ? `${prefix}[]` : prefix;
  return Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(([key, field]) =>
    schemaLeaves(field, at === "" ? key : `${at}.${key}`),
  );
}
