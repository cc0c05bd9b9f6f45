import type { IncomingMessage } from "node:http";
import { ApiError } from "./errors";

export interface Organization {
  id: string;
  apiKey: string;
  subOrganizationIds: readonly string[];
}

export interface Caller {
  organization: Organization;
  /** From x-sub-organization-id, already checked to belong to the organization. */
  subOrganizationId: string | null;
}

/**
 * The contract does not say whether the key carries a scheme, so both `KEY` and
 * `<scheme> KEY` (e.g. `Bearer KEY`) are accepted.
 */
export function authenticate(req: IncomingMessage, organizations: readonly Organization[]): Caller {
  const header = req.headers.authorization?.trim();
  if (header === undefined || header === "") {
    throw new ApiError(
      401,
      "missing_api_key",
      'The Authorization header is missing; send the API key bare or as "Bearer <key>".',
    );
  }
  const key = /^\S+\s+(\S+)$/.exec(header)?.[1] ?? (/^\S+$/.test(header) ? header : undefined);
  if (key === undefined) {
    throw new ApiError(
      401,
      "invalid_api_key",
      'The Authorization header must be the API key or "<scheme> <key>".',
    );
  }
  const organization = organizations.find((candidate) => candidate.apiKey === key);
  if (organization === undefined) {
    throw new ApiError(401, "invalid_api_key", "The API key is not known to this emulator.");
  }
  return { organization, subOrganizationId: subOrganizationOf(req, organization) };
}

function subOrganizationOf(req: IncomingMessage, organization: Organization): string | null {
  const value = req.headers["x-sub-organization-id"];
  if (value === undefined) return null;
  const id = Array.isArray(value) ? value.join(",") : value;
  if (!organization.subOrganizationIds.includes(id)) {
    throw new ApiError(
      403,
      "forbidden_sub_organization",
      `x-sub-organization-id "${id}" is not a sub-organization of organization "${organization.id}".`,
    );
  }
  return id;
}
