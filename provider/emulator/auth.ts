import type { IncomingMessage } from "node:http";
import { ErrorAnswer } from "./errors";

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
    throw new ErrorAnswer(
      401,
      "missing_api_key",
      'The Authorization header is missing; send the API key bare or as "Bearer <key>".',
    );
  }
  const key = keyOf(header);
  if (key === undefined) {
    throw new ErrorAnswer(
      401,
      "invalid_api_key",
      'The Authorization header must be the API key or "<scheme> <key>".',
    );
  }
  const organization = organizations.find((candidate) => candidate.apiKey === key);
  if (organization === undefined) {
    throw new ErrorAnswer(401, "invalid_api_key", "The API key is not known to this emulator.");
  }
  const subOrganizationId = subOrganizationOf(req);
  if (subOrganizationId !== null && !organization.subOrganizationIds.includes(subOrganizationId)) {
    throw new ErrorAnswer(
      403,
      "forbidden_sub_organization",
      `x-sub-organization-id "${subOrganizationId}" is not a sub-organization of organization "${organization.id}".`,
    );
  }
  return { organization, subOrganizationId };
}

/**
 * Who a request is from, for its log entry, before anything refuses it (a fault answers before
 * authentication): the organization of its key and its sub-organization when that belongs to it,
 * else null.
 */
export function claimedCaller(
  req: IncomingMessage,
  organizations: readonly Organization[],
): { organizationId: string | null; subOrganizationId: string | null } {
  const key = keyOf(req.headers.authorization?.trim() ?? "");
  const organization = organizations.find((candidate) => candidate.apiKey === key);
  if (organization === undefined) return { organizationId: null, subOrganizationId: null };
  const subOrganizationId = subOrganizationOf(req);
  return {
    organizationId: organization.id,
    subOrganizationId:
      subOrganizationId !== null && organization.subOrganizationIds.includes(subOrganizationId)
        ? subOrganizationId
        : null,
  };
}

function keyOf(header: string): string | undefined {
  return /^\S+\s+(\S+)$/.exec(header)?.[1] ?? (/^\S+$/.test(header) ? header : undefined);
}

function subOrganizationOf(req: IncomingMessage): string | null {
  const value = req.headers["x-sub-organization-id"];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(",") : value;
}
