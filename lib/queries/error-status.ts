// The HTTP status of a failed query, by shape rather than `instanceof`: on the server, Next bundles
// route handlers and pages separately, and a DataApi shared between them (per-key registry on
// globalThis) can throw a DataApiError from another bundle's copy of the class.
export function errorStatus(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const status = (error as { status?: unknown }).status;
  return typeof status === "number" ? status : undefined;
}

/** The parameter a 400 names and what is wrong with it (the server's schema's message), if it names one. */
export function invalidParamOf(error: unknown): { param: string; message: string } | undefined {
  if (errorStatus(error) !== 400) return undefined;
  const { param, message } = error as { param?: unknown; message?: unknown };
  return typeof param === "string" && typeof message === "string" ? { param, message } : undefined;
}
