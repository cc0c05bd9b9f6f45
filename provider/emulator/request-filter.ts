/**
 * Which entries of the request log a test asks for: `requests({ method: "POST", path:
 * "/organization/sip" })`. Every field given must match; a function filters as it likes.
 */
import type { EmulatorOrigin, RequestLogEntry } from "./control-types";
import { pathMatches } from "./path-pattern";

export interface RequestFields {
  /** The HTTP method, in any case. */
  method?: string;
  /** An exact path, or one where `*` stands for one segment: "/voices/*". No query string. */
  path?: string;
  origin?: EmulatorOrigin;
  /** The answer's status; null for a request not answered (pending, cut, abandoned). */
  status?: number | null;
  /** The organization of the request's key; null for a request without a known key. */
  organizationId?: string | null;
  /** The request's sub-organization; null for one sent without x-sub-organization-id. */
  subOrganizationId?: string | null;
  /** true: only requests a fault acted on; false: only those none did. */
  faulted?: boolean;
}

export type RequestFilter = RequestFields | ((entry: RequestLogEntry) => boolean);

export function matchesRequest(entry: RequestLogEntry, filter: RequestFilter = {}): boolean {
  if (typeof filter === "function") return filter(entry);
  return (
    (filter.method === undefined || filter.method.toUpperCase() === entry.method.toUpperCase()) &&
    (filter.path === undefined || pathMatches(filter.path, entry.path)) &&
    (filter.origin === undefined || filter.origin === entry.origin) &&
    (filter.status === undefined || filter.status === entry.status) &&
    (filter.organizationId === undefined || filter.organizationId === entry.organizationId) &&
    (filter.subOrganizationId === undefined ||
      filter.subOrganizationId === entry.subOrganizationId) &&
    (filter.faulted === undefined || filter.faulted === (entry.fault !== null))
  );
}
