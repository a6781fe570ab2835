// What the workspace's writes take, checked once before anything reaches the store: another key of
// the workspace to link (its form, trimmed), and the confirmation of deleting everything kept.
import { z } from "zod";
import { API_KEY_PATTERN } from "@/lib/server/session";

const KEY_FORM_MESSAGE = "apiKey must be a workspace API key: svc_sk_live_ or svc_sk_test_ followed by letters, digits, _ or -.";

/** POST /api/workspace/keys {apiKey} */
export const linkedKeyBody = z.object({
  apiKey: z
    .string({ error: "apiKey must be a string: the other API key of this workspace." })
    .transform((v) => v.trim())
    .refine((v) => API_KEY_PATTERN.test(v), { error: KEY_FORM_MESSAGE }),
});
export const LINKED_KEY_EXAMPLE = '{"apiKey": "svc_sk_..."}';

/** DELETE /api/workspace {confirm: "delete"} */
export const deleteConfirmation = z.object({
  confirm: z.literal("delete", { error: 'confirm must be "delete": everything kept for this workspace is deleted, which cannot be undone.' }),
});
export const DELETE_CONFIRMATION_EXAMPLE = '{"confirm": "delete"}';

/** A link's id as the store makes them; anything else is simply not found. */
export const LINK_ID = {
  pattern: /^lk_[A-Za-z0-9_-]{22}$/,
  message: "This workspace has no linked key with that id (it may have been unlinked already).",
  refusal: "not_found",
} as const;
