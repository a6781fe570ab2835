// Reading a request body with a hard size bound. The body is read chunk by chunk and the stream is
// cancelled as soon as the bound is passed (chunked uploads) or refused before reading at all when
// the declared Content-Length is already over it, so an oversized upload never gets buffered.
import "server-only";
import type { z } from "zod";
import { MAX_BODY_BYTES } from "./body-limit";
import { finalError, invalidParameter } from "./http";

export const payloadTooLarge = (maxBytes: number) =>
  finalError({
    status: 413,
    code: "payload_too_large",
    message: `The request body is larger than ${Math.round(maxBytes / 1024)} KB.`,
  });

/** The body as UTF-8 text, at most `maxBytes`; a 413 `payload_too_large` error otherwise. */
export async function readBodyText(req: Request, maxBytes: number): Promise<string> {
  const declared = req.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    await req.body?.cancel().catch(() => {});
    throw payloadTooLarge(maxBytes);
  }
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw payloadTooLarge(maxBytes);
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The body as a JSON object (at most MAX_BODY_BYTES), or a 400 naming `body` that shows `example`:
 * what every write route of the store reads before checking its fields.
 */
export async function readJsonObject(req: Request, example: string): Promise<Record<string, unknown>> {
  const text = await readBodyText(req, MAX_BODY_BYTES);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalidParameter("body", `The request body must be JSON: ${example}.`);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw invalidParameter("body", `The request body must be a JSON object: ${example}.`);
  return body as Record<string, unknown>;
}

/** The request's JSON object read with `schema`, or a 400 naming the first bad field (`body` when it is not a JSON object). */
export async function jsonBodyOf<S extends z.ZodType>(req: Request, schema: S, example: string): Promise<z.output<S>> {
  const raw = await readJsonObject(req, example);
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw invalidParameter(String(issue.path[0] ?? "body"), issue.message);
}
