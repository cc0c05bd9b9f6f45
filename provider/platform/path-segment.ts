/**
 * Ids become segments of a request's path (PUT /voices/{id}). "." and ".." are resolved away by
 * every URL parser, even percent-encoded, so the call would reach another address.
 */
/** What pathSegmentProblem answers, by problem; `{decoded}` is the id decoded. */
export const PATH_SEGMENT_PROBLEMS = {
  empty: "must not be empty",
  dotSegment:
    'must not be "{decoded}": as a segment of the request\'s path it would send the call to another address',
  control: "must not contain control characters: copy the id again without them",
} as const;

export function pathSegmentProblem(value: string): string | undefined {
  if (value === "") return PATH_SEGMENT_PROBLEMS.empty;
  const decoded = safeDecode(value);
  if (decoded === "." || decoded === "..")
    return PATH_SEGMENT_PROBLEMS.dotSegment.replace("{decoded}", decoded);
  if (/[\u0000-\u001f\u007f]/.test(decoded)) return PATH_SEGMENT_PROBLEMS.control;
  return undefined;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
