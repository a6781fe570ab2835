// The workspace API: what the signed-in key's workspace keeps (watching, linked keys, where history
// begins, how much is kept), linking another key of the same workspace (a key that had opened a
// workspace of its own brings it along: the two become one), unlinking one (its sessions end),
// watching on and off, and deleting everything kept (the session ends). Every answer is about the
// session's own workspace (the one its key opens); keys appear only as masked hints and their links'
// ids. Mounted by app/api/workspace/**/route.ts, which declare each route's access: every one in the
// store's scope (the key rechecked upstream), writes from this app's own pages only (a foreign or
// `null` Origin, or a cross-site fetch, is a 403 and changes nothing), linking an attempt at a key.
// "Same workspace" when linking: the Data API names no workspace, so two keys are taken to open the
// same one when they answer the same score and ranking (value, components, `updated_at`, and every
// ranking entry), read fresh with both keys; when a key may not read those (403), the same overview
// of the last 30 days. Reads a moment apart can straddle an upstream update, so a mismatch is read
// once more before the link is refused.
import "server-only";
import type { z } from "zod";
import type { DataApi } from "@/lib/data-api/api";
import { isDataApiError } from "@/lib/data-api/errors";
import type { Overview, Ranking, Score } from "@/lib/data-api/schemas";
import { finalError, json, noContent } from "@/lib/server/http";
import type { StoreScope } from "@/lib/server/route-types";
import { endSessionsOfKey, revokeSession, sessionClearCookie, type Session } from "@/lib/server/session";
import { dataApiForKey, discardKey } from "@/lib/server/upstream";
import type { KeptSummary, LinkedKey, Workspace } from "@/lib/store/workspaces";
import type { linkedKeyBody } from "./schema";

/** A key linked to the workspace; `current` marks the one the session signed in with (it cannot be unlinked here). */
export type LinkedKeyBody = { id: string; key_hint: string; linked_at: string; current: boolean };

/** What deleting everything would delete, counted (Settings' confirmation names it). */
export type KeptBody = {
  snapshots: number;
  notes: number;
  views: number;
  alert_destinations: number;
  alert_rules: number;
  shares: number;
  kept_key: boolean;
  activity: number;
  /** Figures of closed days kept for the insights. */
  kept_days: number;
  tokens: number;
};

export type WorkspaceBody = {
  watching: Workspace["watching"];
  paused_reason?: string;
  linked_keys: LinkedKeyBody[];
  history_since: string | null;
  time_zone: string;
  kept: KeptBody;
};

/** POST /api/workspace/keys's answer: the link, and whether the key brought a workspace of its own along. */
export type LinkBody = Omit<LinkedKeyBody, "current"> & { merged: boolean };

const linkedBody = (k: LinkedKey, ownId: string): LinkedKeyBody => ({
  id: k.id,
  key_hint: k.keyHint,
  linked_at: new Date(k.linkedAt).toISOString(),
  current: k.id === ownId,
});

const keptBody = (k: KeptSummary): KeptBody => ({
  snapshots: k.snapshots,
  notes: k.notes,
  views: k.views,
  alert_destinations: k.alertDestinations,
  alert_rules: k.alertRules,
  shares: k.shares,
  kept_key: k.keptKey,
  activity: k.activity,
  kept_days: k.keptDays,
  tokens: k.tokens,
});

/** The workspace as it is. */
async function workspaceOf({ store, workspace }: StoreScope): Promise<Workspace> {
  const found = await store.workspaces.workspace(workspace);
  if (!found) throw new Error("the session's workspace could not be read back");
  return found;
}

/** GET /api/workspace */
export async function readWorkspace({ scope }: { scope: StoreScope }): Promise<WorkspaceBody> {
  const { store, apiKey } = scope;
  const workspace = await workspaceOf(scope);
  const ownId = store.workspaces.linkIdOf(apiKey);
  const [keys, kept] = await Promise.all([store.workspaces.linkedKeys(workspace.id), store.workspaces.keptSummary(workspace.id)]);
  const body: WorkspaceBody = {
    watching: workspace.watching,
    ...(workspace.watching === "paused" && workspace.pausedReason ? { paused_reason: workspace.pausedReason } : {}),
    linked_keys: keys.map((k) => linkedBody(k, ownId)),
    history_since: workspace.historySince === null ? null : new Date(workspace.historySince).toISOString(),
    time_zone: workspace.timeZone,
    kept: keptBody(kept),
  };
  return body;
}

/** PUT /api/workspace/watch: the session's key is kept sealed so the background jobs can collect. */
export async function startWatching({ scope }: { scope: StoreScope }) {
  const updated = await scope.store.workspaces.setWatching(scope.workspace, scope.apiKey);
  await scope.record("watching.started", "");
  return { watching: updated.watching };
}

/** DELETE /api/workspace/watch: watching off, the sealed key deleted in the same statement. */
export async function stopWatching({ scope }: { scope: StoreScope }) {
  const updated = await scope.store.workspaces.stopWatching(scope.workspace);
  await scope.record("watching.stopped", "");
  return { watching: updated.watching };
}

type Reading = { kind: "intelligence"; value: string } | { kind: "overview"; value: string } | { kind: "none" };

/** What a key's workspace answers, to compare with another key's: score and ranking, else the overview. */
async function readingOf(api: DataApi, signal: AbortSignal, skipIntelligence: boolean): Promise<Reading> {
  const options = { signal, fresh: true };
  if (!skipIntelligence) {
    try {
      const [score, ranking]: [Score, Ranking] = await Promise.all([
        api.get("/intelligence/score", {}, options),
        api.get("/intelligence/ranking", {}, options),
      ]);
      return { kind: "intelligence", value: JSON.stringify([score, ranking.data]) };
    } catch (error) {
      if (!(isDataApiError(error) && error.status === 403)) throw error;
    }
  }
  try {
    const overview: Overview = await api.get("/analytics/overview", { query: { period: "30d" } }, options);
    const { visitors, pageviews, conversions, ai_traffic } = overview;
    return { kind: "overview", value: JSON.stringify({ visitors, pageviews, conversions, ai_traffic }) };
  } catch (error) {
    if (!(isDataApiError(error) && error.status === 403)) throw error;
    return { kind: "none" };
  }
}

/** The other key's failure, said about that key (never the session's). */
function otherKeyFailure(error: unknown): unknown {
  if (!isDataApiError(error)) return error;
  if (error.status === 401)
    return finalError({ status: 400, code: "invalid_key", message: "That key is not valid or was revoked: it cannot be linked.", param: "apiKey" });
  return error;
}

/** Do the two keys open the same workspace? Read with both; once more on a mismatch. */
async function sameWorkspace(sessionKey: string, otherKey: string, signal: AbortSignal): Promise<boolean> {
  const readOther = async (skipIntelligence: boolean) => {
    try {
      return await readingOf(dataApiForKey(otherKey), signal, skipIntelligence);
    } catch (error) {
      if (isDataApiError(error) && error.status === 401) discardKey(otherKey);
      throw otherKeyFailure(error);
    }
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    let other = await readOther(false);
    const mine = await readingOf(dataApiForKey(sessionKey), signal, other.kind === "overview");
    // The session's key may not read the score: compare the overviews then.
    if (mine.kind === "overview" && other.kind === "intelligence") other = await readOther(true);
    if (mine.kind === "none" || other.kind === "none") {
      throw finalError({
        status: 409,
        code: "conflict",
        message: "These keys may not read the score, the ranking or the overview, so they cannot be told to open the same workspace.",
        param: "apiKey",
      });
    }
    if (mine.kind === other.kind && mine.value === other.value) return true;
  }
  return false;
}

/**
 * POST /api/workspace/keys {apiKey}: links another key of this workspace (it must work upstream and
 * answer the same workspace). A key that had opened a workspace of its own here brings it along
 * (`merged: true`): its history, notes, views and alerts are this workspace's now, and its sessions
 * go on, opening this one. A guessed key is refused here as at sign-in: the route counts each attempt
 * until one links.
 */
export async function linkKey({ scope, body, signal }: { scope: StoreScope; body: z.output<typeof linkedKeyBody>; signal?: AbortSignal }): Promise<Response> {
  const { store, apiKey, workspace, record } = scope;
  const otherKey = body.apiKey;
  if (otherKey !== apiKey) {
    if (!(await sameWorkspace(apiKey, otherKey, signal ?? new AbortController().signal))) {
      throw finalError({
        status: 409,
        code: "conflict",
        message: "That key opens another workspace: its score, ranking or overview differ from this workspace's.",
        param: "apiKey",
      });
    }
  }
  const before = (await store.workspaces.linkedKeys(workspace)).length;
  const linked = await store.workspaces.linkKey(workspace, otherKey);
  // A key linked before answers its existing link: nothing changed, nothing recorded.
  if (linked.merged) await record("key.linked", `${linked.keyHint} (what it had kept came along)`);
  else if ((await store.workspaces.linkedKeys(workspace)).length > before) await record("key.linked", linked.keyHint);
  const answer: LinkBody = { id: linked.id, key_hint: linked.keyHint, linked_at: new Date(linked.linkedAt).toISOString(), merged: linked.merged };
  return json(answer, { status: 201 });
}

const noSuchKey = () =>
  finalError({ status: 404, code: "not_found", message: "This workspace has no linked key with that id (it may have been unlinked already)." });

/**
 * DELETE /api/workspace/keys/{id}: unlinks a key other than the session's own (409 for that one):
 * every session of it ends, and it opens a workspace of its own again, made on its next sign-in.
 */
export async function unlinkKey({ scope, params }: { scope: StoreScope; params: { id: string } }): Promise<Response> {
  const { store, workspace, apiKey, record } = scope;
  const { id } = params;
  // Refused here, before the store does: the route's own answer is the same in every build, whatever
  // becomes of a store error on its way out.
  if (id === store.workspaces.linkIdOf(apiKey)) {
    throw finalError({
      status: 409,
      code: "conflict",
      message: "This is the key you are signed in with: it cannot be unlinked here. Sign in with another key of this workspace to unlink it.",
    });
  }
  const unlinked = await store.workspaces.unlinkKey(workspace, id, apiKey);
  if (!unlinked) throw noSuchKey();
  await endSessionsOfKey(unlinked.id);
  await record("key.unlinked", unlinked.keyHint);
  return noContent();
}

/**
 * DELETE /api/workspace {confirm: "delete"}: deletes everything the dashboard keeps for the
 * workspace (every per-workspace table, the kept key, the keys' links) and ends the session. The
 * sessions of the workspace's other keys end too: their workspace is gone, and they would otherwise
 * go on into a new, empty one unawares. Anything but `confirm: "delete"` is a 400 naming `confirm`
 * (the route's body).
 */
export async function deleteWorkspace({ scope: { store, workspace }, session }: { scope: StoreScope; session: Session }, req: Request): Promise<Response> {
  const keys = (await store.workspaces.deleteWorkspace(workspace)) ?? [];
  for (const key of keys) await endSessionsOfKey(key.id);
  // By its id too: refused even where the key's revocation cannot be read (no store).
  await revokeSession(session);
  return noContent({ "Set-Cookie": sessionClearCookie(req) });
}
