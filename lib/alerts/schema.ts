// What the alerts' routes take, checked once here before anything reaches the store (which trusts
// it): a destination {kind, name, url} (its URL is judged by destination-url.ts, which resolves it),
// a rule {kind, threshold, destination_id, cooldown_minutes?} and its changes, the digest's
// destination, share link and zone, the rule preview's and the deliveries' queries, and the ids (anything that is
// not one of ours is simply not found). A bad field is a 400 naming it; a threshold is judged by its
// rule's kind (rules.ts `checkThreshold`), once the kind is known.
import { z } from "zod";
import { isTimeZoneName } from "@/lib/data-api/params";
import { isRuleKind, RULE_KINDS, type RuleKind } from "./rules";

/** An id of ours: `prefix`, `_` and 16 base64url characters. */
const idOf = (prefix: string, what: string) =>
  ({
    pattern: new RegExp(`^${prefix}_[A-Za-z0-9_-]{16}$`),
    message: `This workspace has no ${what} with that id (deleted meanwhile?).`,
    refusal: "not_found",
  }) as const;

export const DESTINATION_ID = idOf("dst", "destination");
export const RULE_ID = idOf("rule", "rule");
export const DELIVERY_ID = idOf("dlv", "delivery");

/** A name: one line, 1-80 characters after trimming. */
const nameField = z
  .string({ error: "name must be a string: what the destination is called." })
  .transform((v) => v.trim())
  .refine((v) => v.length >= 1 && [...v].length <= 80, { error: "name must be 1 to 80 characters." })
  .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), { error: "name must be one line of text." });

/** POST /api/alerts/destinations */
export const newDestination = z.object({
  kind: z.enum(["slack", "webhook", "email"], { error: 'kind must be "slack", "webhook" or "email".' }),
  name: nameField,
  // The receiver's URL (slack, webhook) or the one address (email): which one the kind needs is judged by the route.
  url: z.string({ error: "url must be a string: the receiver's address." }).optional(),
  to: z.string({ error: "to must be a string: the one e-mail address to send to." }).optional(),
});
export const NEW_DESTINATION_EXAMPLE = '{"kind": "webhook", "name": "Ops", "url": "https://example.com/hooks/analytics"}';

/** An e-mail address a destination may send to: one address, at most 254 characters, a domain with a dot; trimmed. */
export function checkEmailAddress(value: string): { to: string } | { error: string } {
  const to = value.trim();
  if (to.length === 0 || to.length > 254) return { error: "to must be one e-mail address of at most 254 characters." };
  if (/[\u0000-\u001f\u007f\s<>,;"]/.test(to) || !z.email().safeParse(to).success) return { error: "to must be one e-mail address, like name@example.com." };
  return { to };
}

export const COOLDOWN_MAX_MINUTES = 7 * 24 * 60;

const KINDS_MESSAGE = `kind must be one of ${RULE_KINDS.join(", ")}.`;
const ruleKind = z
  .string({ error: KINDS_MESSAGE })
  .refine(isRuleKind, { error: KINDS_MESSAGE })
  .transform((v) => v as RuleKind);

const cooldownMinutes = z
  .number({ error: "cooldown_minutes must be a number of minutes." })
  .int({ error: "cooldown_minutes must be a whole number of minutes." })
  .min(0, { error: `cooldown_minutes must be 0 to ${COOLDOWN_MAX_MINUTES} (a week).` })
  .max(COOLDOWN_MAX_MINUTES, { error: `cooldown_minutes must be 0 to ${COOLDOWN_MAX_MINUTES} (a week).` })
  .optional();

const destinationRef = z.string({ error: "destination_id must be the id of one of this workspace's destinations." });

/** POST /api/alerts/rules (the threshold is judged by the kind: rules.ts `checkThreshold`). */
export const newRule = z.object({ kind: ruleKind, threshold: z.unknown().optional(), destination_id: destinationRef, cooldown_minutes: cooldownMinutes });
export const NEW_RULE_EXAMPLE = '{"kind": "score_drop", "threshold": 5, "destination_id": "dst_…"}';

/** PATCH /api/alerts/rules/{id}: what is not given stays; the kind, if given, must be the rule's own. */
export const ruleChanges = z.object({
  kind: z
    .string({ error: "kind must be the rule's own kind: a rule's kind cannot be changed (add a rule of the other kind, and delete this one)." })
    .optional(),
  threshold: z.unknown().optional(),
  destination_id: destinationRef.optional(),
  cooldown_minutes: cooldownMinutes,
});
export const RULE_CHANGES_EXAMPLE = '{"threshold": 40, "destination_id": "dst_…", "cooldown_minutes": 90}';

/** A query parameter read as a number (`Number`, as a form sends it), within whole bounds, or `message`. */
const wholeParam = (min: number, max: number, message: string) =>
  z
    .string()
    .transform(Number)
    .refine((v) => Number.isInteger(v) && v >= min && v <= max, { error: message });

/** GET /api/alerts/rules/preview?kind&threshold&cooldown_minutes (the threshold judged by the kind, as a rule's is). */
export const rulePreviewQuery = z.object({
  kind: ruleKind,
  cooldown_minutes: wholeParam(0, COOLDOWN_MAX_MINUTES, `cooldown_minutes must be a whole number from 0 to ${COOLDOWN_MAX_MINUTES}.`).default(60),
  threshold: z
    .string()
    .optional()
    .transform((raw) => (raw === undefined || raw.trim() === "" ? undefined : Number(raw))),
});

/** GET /api/alerts/deliveries?limit */
export const deliveriesQuery = z.object({ limit: wholeParam(1, 200, "limit must be a whole number from 1 to 200.").default(50) });

const timeZoneMessage = "time_zone must be an IANA time zone name, e.g. Europe/Berlin.";

/** PUT /api/alerts/digest {destination_id: string | null, share_id?: string | null, time_zone?} (whose share link `share_id` is, the route judges). */
export const digestSetting = z.object({
  destination_id: z.string({ error: "destination_id must be a destination's id, or null for never." }).nullable(),
  share_id: z
    .string({ error: "share_id must be the id of one of this workspace's share links, or null for links to the dashboard's pages." })
    .nullable()
    .optional(),
  time_zone: z.string({ error: timeZoneMessage }).refine(isTimeZoneName, { error: timeZoneMessage }).optional(),
});
export const DIGEST_SETTING_EXAMPLE = '{"destination_id": "dst_…", "share_id": null, "time_zone": "Europe/Berlin"}';
