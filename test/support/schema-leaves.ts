import { z } from "zod";

/** The object a field holds through optionals and lists, and how many lists it went through. */
export function innerObject(schema: z.ZodType): { object?: z.ZodObject; lists: number } {
  let inner = schema;
  let lists = 0;
  for (;;) {
    if (inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
    else if (inner instanceof z.ZodArray) {
      inner = inner.element as z.ZodType;
      lists += 1;
    } else break;
  }
  return inner instanceof z.ZodObject ? { object: inner, lists } : { lists };
}

/** Every leaf a zod object schema accepts, by path (`gateways[].port`, `settings.speed`). */
export function schemaLeaves(schema: z.ZodType, prefix = ""): string[] {
  const { object, lists } = innerObject(schema);
  if (object === undefined) return [prefix];
  const at = lists > 0 ? `${prefix}[]` : prefix;
  return Object.entries(object.shape as Record<string, z.ZodType>).flatMap(([key, field]) =>
    schemaLeaves(field, at === "" ? key : `${at}.${key}`),
  );
}
