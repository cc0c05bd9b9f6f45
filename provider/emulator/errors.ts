import type { ErrorBody } from "./control-types";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }

  toBody(): ErrorBody {
    const error: ErrorBody["error"] = {
      status: this.status,
      code: this.code,
      message: this.message,
    };
    if (this.field !== undefined) error.field = this.field;
    return { error };
  }
}
