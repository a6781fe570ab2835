// The changes a workspace's activity list records, each with the words Settings says it in. One
// vocabulary for the routes that record (through the store's scope: `scope.record(action, subject)`)
// and the page that shows them; a domain that adds a change adds its action here. No server code: the
// browser reads the words too.

export const ACTIVITY_ACTIONS = {
  "watching.started": "Started watching",
  "watching.stopped": "Stopped watching",
  "key.linked": "Linked a key",
  "key.unlinked": "Unlinked a key",
  "destination.added": "Added a destination",
  "destination.deleted": "Deleted a destination",
  // Done by an e-mail destination's recipient, from the e-mail's link: the "key" is the masked address.
  "destination.confirmed": "Confirmed an e-mail destination",
  "destination.unsubscribed": "Unsubscribed from an e-mail destination",
  "rule.added": "Added an alert rule",
  "rule.changed": "Changed an alert rule",
  "rule.deleted": "Deleted an alert rule",
  "digest.set": "Set where the weekly digest goes",
  "digest.stopped": "Stopped the weekly digest",
  "digest.links": "Chose what the weekly digest's links open",
  "share.created": "Shared a page",
  "share.changed": "Changed a share link",
  "share.revoked": "Revoked a share link",
  "token.created": "Made an access token",
  "token.revoked": "Revoked an access token",
} as const;

export type ActivityAction = keyof typeof ACTIVITY_ACTIONS;

/** What Settings says for an action; one it does not know (recorded by a newer version) in general words. */
export function activityActionText(action: string): string {
  return Object.hasOwn(ACTIVITY_ACTIONS, action) ? ACTIVITY_ACTIONS[action as ActivityAction] : "Changed a setting";
}

/** One record as GET /api/workspace/activity answers it. */
export type ActivityJson = { at: string; key_hint: string; action: string; subject: string };
