import { randomBytes } from "node:crypto";

/** A MongoDB-style ObjectId: 24 lowercase hex characters, the form the platform uses for ids. */
export function newObjectId(): string {
  return randomBytes(12).toString("hex");
}

export function newRequestId(): string {
  return `req_${randomBytes(12).toString("hex")}`;
}

export function newFaultId(): string {
  return `flt_${randomBytes(6).toString("hex")}`;
}

/** Synthesis providers use their own id format, distinct from the record id, so keep them apart. */
export function newProviderVoiceId(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from(randomBytes(20), (byte) => alphabet[byte % alphabet.length]).join("");
}

export const OBJECT_ID_PATTERN = /^[0-9a-fA-F]{24}$/;
