// What the token routes take, checked once, here: a name of one line, 1 to MAX_TOKEN_NAME characters
// after trimming; an optional expiry, an ISO instant in the future, at most MAX_TOKEN_DAYS away; and a
// token's id in a path. No server code: Settings' form uses the same rules.
import { z } from "zod";

export const MAX_TOKEN_NAME = 80;
/** The furthest expiry: a year. */
export const MAX_TOKEN_DAYS = 366;

const tokenName = z.string({ error: "name must be a string: what the token is for." }).transform((raw, ctx) => {
  const name = raw.trim();
  const length = [...name].length;
  const problem =
    length === 0
      ? "name must not be empty: say what the token is for (a script, an assistant)."
      : length > MAX_TOKEN_NAME
        ? `name must be at most ${MAX_TOKEN_NAME} characters (this one has ${length}).`
        : /[\u0000-\u001f\u007f]/.test(name)
          ? "name must be one line of text, without control characters."
          : undefined;
  if (problem === undefined) return name;
  ctx.addIssue({ code: "custom", message: problem });
  return z.NEVER;
});

/** An ISO instant as epoch ms (its being in the future is judged against the server's clock by the route). */
const expiry = z
  .string({ error: "expires_at must be an ISO date-time such as 2027-01-31T00:00:00Z, or null." })
  .refine((value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value)), {
    error: "expires_at must be an ISO date-time such as 2027-01-31T00:00:00Z, or null.",
  })
  .transform((value) => Date.parse(value));

/** POST /api/tokens {name, expires_at?} */
export const newToken = z.object({ name: tokenName, expires_at: expiry.nullish() });

export const NEW_TOKEN_EXAMPLE = '{"name": "Weekly report script", "expires_at": "2027-01-31T00:00:00Z"}';

/** A token's id in a path: anything that cannot be one of ours is simply not found. */
export const TOKEN_ID = { pattern: /^tok_[A-Za-z0-9_-]{16}$/, message: "There is no such token.", refusal: "not_found" as const };
