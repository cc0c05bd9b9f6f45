/**
 * Ids become segments of a request's path (PUT /voices/{id}). "." and ".." are resolved away by
 * every URL parser, even percent-encoded, so the call would reach another address.
 */
export function pathSegmentProblem(value: string): string | undefined {
  if (value === "") return "must not be empty";
  const decoded = safeDecode(value);
  if (decoded === "." || decoded === "..") {
    return `must not be "${decoded}": as a segment of the request's path it would send the call to another address`;
  }
  if (/[\u0000-\u001f\u007f]/.test(decoded))
    return "must not contain control characters: copy the id again without them";
  return undefined;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
