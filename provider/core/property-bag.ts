/**
 * Inputs and state as the handlers see them: plain property bags, without `__provider` or gRPC
 * structs, secrets in plaintext (the front ends keep them secret).
 */
export type Inputs = Record<string, unknown>;
