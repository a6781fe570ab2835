// @vitest-environment jsdom
// Settings' alerts against the app's own /api/alerts handlers over a real embedded store
// (testing/app-fetch.ts) and a real HTTP receiver on 127.0.0.1
// (testing/webhook-receiver.ts): a webhook added by keyboard, a refused URL said on its field in the
// dashboard's words, the secret shown once and the one the receiver's library verifies a test with,
// the test's delivery listed once the table polls (on fake time); the rule preview asked only once
// typing has paused (fake time), its sentence the route's count, a refused threshold on its field;
// a rule added and removed at once on delete; a destination's delete saying what goes with it; the
// watching notice; every result announced in a live region. A rule's state in words for each state
// (never "OK" before its first check, and when that check will be); watching started from the rule's
// form, the rule then checked at once; a rule edited in place by keyboard (a refusal on its field,
// Escape and Cancel putting it back); the digest's time in its zone and the reader's, its preview (the
// route's text, its HTML in a sandboxed frame) and "Send now" delivered to the receiver and listed.
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startReceiver, verifySignature, type Receiver } from "@/testing/webhook-receiver";
import { startSmtpReceiver } from "@/testing/smtp-receiver";
import { appRoutesAsFetch, preloadRoutes, type SentRequest } from "@/testing/app-fetch";
import { renderWithProviders } from "@/components/test-utils/render";
import { DELIVERY_POLL_MS } from "@/lib/queries/alerts";
import { ViewerTimeZoneProvider } from "@/lib/range/use-date-range";
import type { WorkspaceId } from "@/lib/store/schema";
import type { Store } from "@/lib/store/store";
import { storesForFile } from "@/testing/stores";
import { serverContextPerTest, sessionCookie, upstreamForFile } from "@/testing/in-process";
import { DEMO_KEYS } from "@/sandbox/keys";
import { previewSentence } from "./alert-text";
import { AlertsSection } from "./alerts-section";
import { PREVIEW_DEBOUNCE_MS } from "./rules-card";

upstreamForFile({ visitors: 10 });
const stores = storesForFile();
const overrideContext = serverContextPerTest();

let store: Store;
let ws: WorkspaceId;
let cookie: string;
let sent: SentRequest[];
let receiver: Receiver;
const allowPrivate = process.env.WEBHOOK_ALLOW_PRIVATE;

beforeAll(async () => {
  // The receiver is on loopback, which the routes refuse unless allowed.
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  await preloadRoutes([
    "/api/alerts/destinations",
    "/api/alerts/destinations/dst_x/test",
    "/api/alerts/deliveries",
    "/api/alerts/rules",
    "/api/alerts/digest",
    "/api/shares",
    "/api/workspace",
  ]);
});
afterAll(() => {
  if (allowPrivate === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE;
  else process.env.WEBHOOK_ALLOW_PRIVATE = allowPrivate;
});

beforeEach(async () => {
  store = await stores.open("embedded");
  overrideContext({ store: async () => store });
  ws = (await store.workspaces.workspaceForKey(DEMO_KEYS.pro)).id;
  cookie = await sessionCookie(DEMO_KEYS.pro);
  sent = [];
  receiver = await startReceiver();
  vi.stubGlobal("fetch", appRoutesAsFetch(cookie, sent));
});

afterEach(async () => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  await receiver.close();
});

const renderSection = (props: { emailAvailable?: boolean } = {}) =>
  renderWithProviders(
    <ViewerTimeZoneProvider tz="UTC">
      <AlertsSection {...props} />
    </ViewerTimeZoneProvider>,
  );

/** A destination kept in the store before the test, as the route would keep it. */
const keptDestination = (name: string) =>
  store.alerts.createDestination(ws, {
    kind: "webhook",
    name,
    url: receiver.url,
    urlHint: "http://127.0.0.1/…ics",
    secret: "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0",
  });

describe("destinations", () => {
  it("a webhook added by keyboard: a refused URL on its field, the secret once, a test verified by the receiver and listed as delivered", async () => {
    const { user } = renderSection();
    const card = await screen.findByTestId("destinations-card");
    await within(card).findByTestId("destinations-empty");
    const kind = within(card).getByRole("combobox", { name: "Kind" });
    await user.selectOptions(kind, "webhook");
    await user.click(within(card).getByRole("textbox", { name: "Name" }));
    await user.keyboard("Receiver");
    await user.tab();
    const url = within(card).getByRole("textbox", { name: "URL" });
    expect(document.activeElement).toBe(url);
    await user.keyboard("ftp://example.com/x{Enter}");

    // Refused on its field, in the dashboard's words (not the route's), focus put there.
    await waitFor(() => expect(url.getAttribute("aria-invalid")).toBe("true"));
    const error = document.getElementById(`${url.id}-error`)!;
    expect(error.textContent).toMatch(/^This address cannot receive alerts\./);
    expect(url.getAttribute("aria-describedby")).toContain(error.id);
    await waitFor(() => expect(document.activeElement).toBe(url));
    expect(await store.alerts.destinations(ws)).toEqual([]);

    await user.clear(url);
    await user.type(url, `${receiver.url}{Enter}`);
    const secretBox = await within(card).findByTestId("destination-secret");
    const secretField = within(secretBox).getByRole("textbox", { name: /Signing secret of Receiver/ });
    const secret = (secretField as HTMLInputElement).value;
    expect(secret).toMatch(/^whsec_/);
    expect(secretBox.textContent).toContain("It will not be shown again.");
    await waitFor(() => expect(document.activeElement).toBe(secretField));
    expect(within(card).getByTestId("destinations-status").textContent).toBe(
      "Webhook Receiver added. Copy its signing secret now: it will not be shown again.",
    );
    expect(sent.filter((s) => s.method === "POST")).toEqual([
      { method: "POST", url: "/api/alerts/destinations", body: { kind: "webhook", name: "Receiver", url: "ftp://example.com/x" } },
      { method: "POST", url: "/api/alerts/destinations", body: { kind: "webhook", name: "Receiver", url: receiver.url } },
    ]);

    // Listed with the hint the route answers, never the URL; once dismissed, the secret is gone from the page.
    const item = await within(card).findByTestId("destination-item");
    expect(within(item).getByTestId("destination-url").textContent).toContain("http://127.0.0.1:");
    expect(item.textContent).not.toContain(receiver.url);
    await user.click(within(secretBox).getByRole("button", { name: "I have copied it" }));
    expect(document.body.textContent).not.toContain(secret);

    // Send a test: announced; the receiver gets it signed with the secret shown; the table polls until it is listed.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    fireEvent.click(within(item).getByRole("button", { name: "Send a test to Receiver" }));
    await waitFor(() =>
      expect(within(card).getByTestId("destinations-status").textContent).toBe("Test sent to Receiver: its delivery shows under Deliveries."),
    );
    const [request] = await receiver.waitFor(1);
    expect(verifySignature(secret, request!)).toBe(true);
    const deliveries = screen.getByTestId("deliveries-card");
    await waitFor(async () => {
      await act(() => vi.advanceTimersByTimeAsync(DELIVERY_POLL_MS));
      expect(within(deliveries).getAllByTestId("delivery-response")[0]!.textContent).toBe("HTTP 200");
    });
    const row = within(deliveries).getAllByTestId("delivery-row")[0]!;
    expect(row.textContent).toContain("Receiver");
    expect(row.textContent).toContain("Test");
    expect(within(row).getByTestId("delivery-status").textContent).toBe("Delivered");
  });

  it("an e-mail address added by keyboard: a bad one said on its field; the confirmation arrives; listed masked, waiting, with no test", async () => {
    const smtp = await startSmtpReceiver();
    vi.stubEnv("SMTP_URL", smtp.url);
    vi.stubEnv("MAIL_FROM", "Workspace Analytics <alerts@example.com>");
    vi.stubEnv("PUBLIC_URL", "https://dash.example.com");
    try {
      const { user } = renderSection({ emailAvailable: true });
      const card = await screen.findByTestId("destinations-card");
      await within(card).findByTestId("destinations-empty");
      expect(within(card).queryByTestId("destination-email-unavailable")).toBeNull();
      await user.selectOptions(within(card).getByRole("combobox", { name: "Kind" }), "email");
      await user.click(within(card).getByRole("textbox", { name: "Name" }));
      await user.keyboard("Maria");
      await user.tab();
      const address = within(card).getByRole("textbox", { name: "E-mail address" });
      expect(document.activeElement).toBe(address);
      expect(address.getAttribute("type")).toBe("email");
      await user.keyboard("maria@example{Enter}");
      await waitFor(() => expect(address.getAttribute("aria-invalid")).toBe("true"));
      expect(document.getElementById(`${address.id}-error`)!.textContent).toBe("Type one e-mail address, such as maria@example.com.");
      expect(smtp.arrived).toEqual([]);

      await user.clear(address);
      await user.type(address, "maria.lopez@example.org{Enter}");
      await waitFor(() =>
        expect(within(card).getByTestId("destinations-status").textContent).toBe(
          "Confirmation sent to m…@example.org. Nothing else goes to Maria until its recipient presses Confirm in that e-mail.",
        ),
      );
      expect(sent.filter((s) => s.method === "POST").map((s) => s.body)).toEqual([
        { kind: "email", name: "Maria", to: "maria@example" },
        { kind: "email", name: "Maria", to: "maria.lopez@example.org" },
      ]);
      const [mail] = await smtp.waitFor(1);
      expect(mail!.to).toEqual(["maria.lopez@example.org"]);
      const item = await within(card).findByTestId("destination-item");
      expect(within(item).getByTestId("destination-status").textContent).toBe("Waiting for confirmation");
      expect(within(item).getByTestId("destination-url").textContent).toBe("Address, masked: m…@example.org");
      expect(within(item).getByTestId("destination-unconfirmed").textContent).toContain("Confirm button");
      expect(within(item).queryByRole("button", { name: /Send a test/ })).toBeNull();
      expect(card.textContent).not.toContain("maria.lopez");
    } finally {
      vi.unstubAllEnvs();
      const g = globalThis as { __waMailer?: { mailer: { close(): void } } };
      g.__waMailer?.mailer.close();
      delete g.__waMailer;
      await smtp.close();
    }
  });

  it("without a mail server, e-mail is offered disabled and Settings says what to set", async () => {
    renderSection();
    const card = await screen.findByTestId("destinations-card");
    const option = within(card).getByRole("option", { name: "E-mail (no mail server set up)" }) as HTMLOptionElement;
    expect(option.disabled).toBe(true);
    const kind = within(card).getByRole("combobox", { name: "Kind" });
    const help = within(card).getByTestId("destination-email-unavailable");
    expect(kind.getAttribute("aria-describedby")).toContain(help.id);
    expect(help.textContent).toContain("SMTP_URL");
  });

  it("a destination that timed out 5 times in a row says it rests and until when; an 11th test in a minute says when to try again", async () => {
    const slow = await keptDestination("Slow");
    for (let i = 0; i < 5; i++) {
      await store.alerts.enqueue(
        ws,
        { dedupeKey: `slow:${i}`, type: "test", body: { type: "test", timestamp: "2026-11-20T12:00:00Z", data: { message: "x" } } },
        [slow.id],
      );
      const t = Date.now();
      const claimed = (await store.alerts.claimNext(slow.id, "test", t, t + 20_000))!;
      await store.alerts.finishAttempt(claimed, "test", {
        at: t,
        status: "retrying",
        responseStatus: null,
        error: "no answer within 10 s",
        durationMs: 10_000,
        nextAttemptAt: t + 3_600_000,
        timedOut: true,
      });
    }
    const restingUntil = (await store.alerts.destination(ws, slow.id))!.restingUntil!;
    for (let i = 0; i < 10; i++) await store.alerts.takeManualSend(ws, "test");
    const { user } = renderSection();
    const card = await screen.findByTestId("destinations-card");
    const item = await within(card).findByTestId("destination-item");
    await waitFor(() => expect(within(item).getByTestId("destination-status").textContent).toBe("Resting"));
    const said = within(item).getByTestId("destination-resting").textContent!;
    expect(said).toMatch(/^It did not answer 5 times in a row, so nothing is sent here until .+; what waits for it goes then\.$/);
    const until = new Date(restingUntil);
    expect(said).toContain(`${String(until.getUTCHours()).padStart(2, "0")}:${String(until.getUTCMinutes()).padStart(2, "0")}`);

    await user.click(within(item).getByRole("button", { name: "Send a test to Slow" }));
    await waitFor(() =>
      expect(item.textContent).toMatch(
        /“Send a test”, “Retry” and the digest’s “Send now” can be used 10 times a minute in a workspace, together\. Try again in (\d+ s|\d+ seconds|1 min)/,
      ),
    );
  });

  it("a delete is asked first, saying which rules and the digest go with it, then announced", async () => {
    const ops = await keptDestination("Ops");
    await store.alerts.createRule(ws, { kind: "score_below", threshold: 40, destinationId: ops.id, cooldownMs: 3_600_000 });
    await store.alerts.createRule(ws, { kind: "rank_passed", threshold: null, destinationId: ops.id, cooldownMs: 3_600_000 });
    await store.alerts.setDigest(ws, ops.id);
    const { user } = renderSection();
    const card = await screen.findByTestId("destinations-card");
    const item = await within(card).findByTestId("destination-item");
    await waitFor(() => expect(item.textContent).toContain("2 rules · the weekly digest"));
    await user.click(within(item).getByRole("button", { name: "Delete Ops" }));
    const confirm = within(item).getByRole("button", { name: "Yes, delete" });
    await waitFor(() => expect(document.activeElement).toBe(confirm));
    expect(item.textContent).toContain("Delete Ops? Its 2 rules are deleted too, and the weekly digest is turned off.");
    await user.keyboard("{Enter}");
    await waitFor(() =>
      expect(within(card).getByTestId("destinations-status").textContent).toBe(
        "Destination Ops deleted. Its 2 rules were deleted too, and the weekly digest was turned off.",
      ),
    );
    expect(await store.alerts.destinations(ws)).toEqual([]);
    expect(await store.alerts.rules(ws)).toEqual([]);
    await waitFor(() => expect(screen.getByTestId("digest-next").textContent).toBe("No digest is sent."));
    await within(screen.getByTestId("rules-card")).findByTestId("rules-empty");
  });
});

describe("rules", () => {
  it("the preview is asked once typing has paused, says the route's count, and a refused threshold is said on its field", async () => {
    await keptDestination("Ops");
    renderSection();
    const card = await screen.findByTestId("rules-card");
    await within(card).findByRole("option", { name: "Ops (webhook)" });
    fireEvent.change(within(card).getByRole("combobox", { name: "Notify when" }), { target: { value: "score_below" } });
    const threshold = within(card).getByRole("spinbutton", { name: "Score below" });
    await waitFor(() => expect(sent.some((s) => s.url.startsWith("/api/alerts/rules/preview?kind=score_below"))).toBe(true));

    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const asked = () => sent.filter((s) => s.url.startsWith("/api/alerts/rules/preview")).map((s) => s.url);
    const before = asked().length;
    fireEvent.change(threshold, { target: { value: "6" } });
    fireEvent.change(threshold, { target: { value: "60" } });
    expect(within(card).getByTestId("rule-preview-text").textContent).toBe("Checking the kept history…");
    act(() => vi.advanceTimersByTime(PREVIEW_DEBOUNCE_MS - 1));
    expect(asked().length).toBe(before);
    act(() => vi.advanceTimersByTime(1));
    expect(asked().slice(before)).toEqual(["/api/alerts/rules/preview?kind=score_below&threshold=60&cooldown_minutes=60"]);
    vi.useRealTimers();
    const route = (await (await appRoutesAsFetch(cookie)("/api/alerts/rules/preview?kind=score_below&threshold=60&cooldown_minutes=60")).json()) as Parameters<
      typeof previewSentence
    >[0];
    await waitFor(() => expect(within(card).getByTestId("rule-preview-text").textContent).toBe(previewSentence(route, "UTC")));

    // Out of the kind's bounds: the preview route refuses it, said on the field with the bounds.
    fireEvent.change(threshold, { target: { value: "101" } });
    await waitFor(() => expect(threshold.getAttribute("aria-invalid")).toBe("true"));
    expect(document.getElementById(`${threshold.id}-error`)!.textContent).toBe("A score from 0 to 100.");
    expect(within(card).getByTestId("rule-preview-text").textContent).toBe("Correct the threshold to see how often this rule would have fired.");
  });

  it("a rule added is listed in words with its state; deleted, it leaves the list at once and is announced", async () => {
    const ops = await keptDestination("Ops");
    const { user } = renderSection();
    const card = await screen.findByTestId("rules-card");
    await within(card).findByRole("option", { name: "Ops (webhook)" });
    const threshold = within(card).getByRole("spinbutton", { name: "Fall of at least (points)" });
    await user.clear(threshold);
    await user.type(threshold, "7.5");
    const cooldown = within(card).getByRole("spinbutton", { name: "Cooldown (minutes)" });
    await user.clear(cooldown);
    await user.type(cooldown, "90");
    // Not watched: the form offers watching first; this rule is added without it.
    await user.click(within(card).getByRole("button", { name: "Add the rule only" }));
    await waitFor(() =>
      expect(within(card).getByTestId("rules-status").textContent).toBe(
        "Rule added: The score falls by 7.5 points or more since the previous snapshot, sent to Ops. Not checked yet: nothing is kept yet to judge it on.",
      ),
    );
    expect(sent.filter((s) => s.method !== "GET")).toEqual([
      { method: "POST", url: "/api/alerts/rules", body: { kind: "score_drop", threshold: 7.5, destination_id: ops.id, cooldown_minutes: 90 } },
    ]);
    const item = await within(card).findByTestId("rule-item");
    expect(within(item).getByTestId("rule-state").textContent).toBe("Not checked yet");
    expect(item.textContent).toContain("To Ops · cooldown 90 minutes");
    expect(within(item).getByTestId("rule-checked").textContent).toBe(
      "It is checked against each new score the dashboard keeps (a fall needs two). Until it watches this workspace, it reads the score only when someone opens a page that shows it.",
    );

    await user.click(within(item).getByRole("button", { name: 'Delete the rule "The score falls by 7.5 points or more since the previous snapshot"' }));
    await user.click(within(item).getByRole("button", { name: "Yes, delete" }));
    await waitFor(() => expect(within(card).queryAllByTestId("rule-item")).toHaveLength(0));
    await waitFor(() =>
      expect(within(card).getByTestId("rules-status").textContent).toBe("Rule deleted: The score falls by 7.5 points or more since the previous snapshot."),
    );
    expect(await store.alerts.rules(ws)).toEqual([]);
  });
});

describe("watching", () => {
  it("off: the section says no rule is checked and links to the watching card", async () => {
    renderSection();
    const notice = await screen.findByTestId("alerts-watching");
    expect(notice.textContent).toContain("Watching is off, so rules are checked only when someone opens the dashboard, and no digest is sent.");
    expect(within(notice).getByRole("link", { name: "History and watching" }).getAttribute("href")).toBe("#watching");
  });
});

/** The workspace's score as kept `hoursAgo` (the rules are judged on the latest; the store's clock is the real one). */
async function keptScores(...scores: [hoursAgo: number, score: number][]) {
  const breakdown = { visibility: null, sentiment: null, authority: null, coverage: null };
  for (const [hoursAgo, score] of scores)
    await store.snapshots.recordScore(ws, { at: Date.now() - hoursAgo * 3_600_000, score, direction: null, change: null, breakdown });
}

describe("a rule's state", () => {
  it("each state in its own words: never checked is not OK; OK, firing since and resolved after a check", async () => {
    const ops = await keptDestination("Ops");
    const rule = (kind: string, threshold: number | null) => store.alerts.createRule(ws, { kind, threshold, destinationId: ops.id, cooldownMs: 0 });
    await rule("score_below", 10);
    const ok = (await rule("score_below", 20))!;
    const firing = (await rule("score_below", 90))!;
    const resolved = (await rule("score_below", 60))!;
    const check = (basis: string, state: "ok" | "firing") => ({ basis, at: Date.now(), state, value: 53, message: "x" });
    await store.alerts.recordCheck(ok, check("score:1", "ok"), null);
    await store.alerts.recordCheck(firing, check("score:1", "firing"), null);
    await store.alerts.recordCheck(resolved, check("score:1", "firing"), null);
    await store.alerts.recordCheck(resolved, check("score:2", "ok"), null);
    renderSection();
    const card = await screen.findByTestId("rules-card");
    await waitFor(() => expect(within(card).getAllByTestId("rule-item")).toHaveLength(4));
    // Rules made in one millisecond are listed in any order: each is found by its threshold.
    const said = [10, 20, 90, 60].map((threshold) => {
      const item = within(card)
        .getAllByTestId("rule-item")
        .find((i) => i.textContent!.includes(`The score is below ${threshold}`))!;
      return [within(item).getByTestId("rule-state").textContent, within(item).getByTestId("rule-checked").textContent];
    });
    expect(said[0]).toEqual(["Not checked yet", expect.stringMatching(/^It is checked against each new score the dashboard keeps\. Until it watches/)]);
    expect(said[1]).toEqual(["OK", expect.stringMatching(/^Last checked (now|\d+ seconds? ago)$/)]);
    expect(said[2]).toEqual(["Firing", expect.stringMatching(/^Firing since \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d · Last checked (now|\d+ seconds? ago)$/)]);
    expect(said[3]).toEqual(["Resolved", expect.stringMatching(/^Resolved \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d · Last checked (now|\d+ seconds? ago)$/)]);
    expect(card.textContent).not.toMatch(/in \d+ seconds?/);
  });

  it("added with watching started from its form: watching first, then the rule, judged at once on the kept score; one with nothing to judge says when that is next read", async () => {
    await keptDestination("Ops");
    await keptScores([30, 70], [6, 53]);
    const { user } = renderSection();
    const card = await screen.findByTestId("rules-card");
    await within(card).findByRole("option", { name: "Ops (webhook)" });
    const offer = await within(card).findByTestId("rule-watch-offer");
    expect(offer.textContent).toContain(
      "The dashboard does not watch this workspace, so this rule would be checked only when someone opens the dashboard, not every hour.",
    );
    expect(offer.textContent).toContain("which deletes the kept key");
    const start = within(card).getByRole("button", { name: "Start watching and add the rule" });
    expect(start.getAttribute("aria-describedby")).toBe(offer.id);

    // By keyboard: Enter in the threshold sends the first choice, to watch and add.
    fireEvent.change(within(card).getByRole("combobox", { name: "Notify when" }), { target: { value: "score_below" } });
    const threshold = within(card).getByRole("spinbutton", { name: "Score below" });
    await user.clear(threshold);
    await user.type(threshold, "60{Enter}");
    await waitFor(() =>
      expect(within(card).getByTestId("rules-status").textContent).toBe(
        "Watching is on. Rule added: The score is below 60, sent to Ops. Checked against what is kept: firing.",
      ),
    );
    expect(sent.filter((s) => s.method !== "GET").map((s) => `${s.method} ${s.url}`)).toEqual(["PUT /api/workspace/watch", "POST /api/alerts/rules"]);
    expect((await store.workspaces.workspace(ws))!.watching).toBe("on");
    const item = await within(card).findByTestId("rule-item");
    expect(within(item).getByTestId("rule-state").textContent).toBe("Firing");
    // Watching now: the offer is gone. A rule with nothing kept to judge it on says when that is next read.
    await waitFor(() => expect(within(card).queryByTestId("rule-watch-offer")).toBeNull());
    fireEvent.change(within(card).getByRole("combobox", { name: "Notify when" }), { target: { value: "rank_passed" } });
    await user.click(within(card).getByRole("button", { name: "Add rule" }));
    await waitFor(() => expect(within(card).getAllByTestId("rule-item")).toHaveLength(2));
    const passed = within(card)
      .getAllByTestId("rule-item")
      .find((i) => i.textContent!.includes("A competitor passes us"))!;
    expect(within(passed).getByTestId("rule-state").textContent).toBe("Not checked yet");
    const nextHour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 3_600_000).toISOString().slice(11, 16);
    expect(within(passed).getByTestId("rule-checked").textContent).toMatch(
      new RegExp(
        `^It is checked against each new ranking the dashboard keeps \\(a pass needs two\\)\\. It reads the ranking next at (${nextHour} today|.+, ${nextHour}) \\(UTC\\)\\.$`,
      ),
    );
  });
});

describe("a rule edited in place", () => {
  it("by keyboard: the fields filled, a refusal on its field, Escape and Cancel put it back, Save changes it and announces it", async () => {
    const ops = await keptDestination("Ops");
    const team = await keptDestination("Team");
    await keptScores([6, 53]);
    const rule = (await store.alerts.createRule(ws, { kind: "score_below", threshold: 60, destinationId: ops.id, cooldownMs: 3_600_000 }))!;
    const { user } = renderSection();
    const card = await screen.findByTestId("rules-card");
    const item = await within(card).findByTestId("rule-item");
    const edit = within(item).getByRole("button", { name: 'Edit the rule "The score is below 60"' });

    // Escape leaves it as it was, focus back on Edit.
    await user.click(edit);
    const form = within(item).getByRole("form", { name: 'Edit the rule "The score is below 60"' });
    const threshold = within(form).getByRole("spinbutton", { name: "Score below" }) as HTMLInputElement;
    await waitFor(() => expect(document.activeElement).toBe(threshold));
    expect(threshold.value).toBe("60");
    expect((within(form).getByRole("combobox", { name: "Send to" }) as HTMLSelectElement).value).toBe(ops.id);
    expect((within(form).getByRole("spinbutton", { name: "Cooldown (minutes)" }) as HTMLInputElement).value).toBe("60");
    await user.clear(threshold);
    await user.type(threshold, "45");
    await user.keyboard("{Escape}");
    expect(within(item).queryByRole("form")).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(within(item).getByRole("button", { name: 'Edit the rule "The score is below 60"' })));

    // Opened again: what the rule has, not what was typed. Out of bounds: refused on the field.
    await user.keyboard("{Enter}");
    const again = within(item).getByRole("spinbutton", { name: "Score below" }) as HTMLInputElement;
    expect(again.value).toBe("60");
    await user.clear(again);
    await user.type(again, "101{Enter}");
    await waitFor(() => expect(again.getAttribute("aria-invalid")).toBe("true"));
    expect(document.getElementById(`${again.id}-error`)!.textContent).toBe("A score from 0 to 100.");
    expect(again.getAttribute("aria-describedby")).toContain(`${again.id}-error`);
    await user.click(within(item).getByRole("button", { name: "Cancel" }));
    expect(within(item).queryByRole("form")).toBeNull();
    expect((await store.alerts.rule(ws, rule.id))!.threshold).toBe(60);

    // Saved: threshold, destination and cooldown; judged again at once; announced; focus back on Edit.
    await user.click(within(item).getByRole("button", { name: 'Edit the rule "The score is below 60"' }));
    const t = within(item).getByRole("spinbutton", { name: "Score below" });
    await user.clear(t);
    await user.type(t, "40");
    await user.selectOptions(within(item).getByRole("combobox", { name: "Send to" }), team.id);
    const cooldown = within(item).getByRole("spinbutton", { name: "Cooldown (minutes)" });
    await user.clear(cooldown);
    await user.type(cooldown, "90");
    await user.click(within(item).getByRole("button", { name: "Save" }));
    await waitFor(() =>
      expect(within(card).getByTestId("rules-status").textContent).toBe(
        "Rule changed: The score is below 40, sent to Team, cooldown 90 minutes. Checked against what is kept: not firing.",
      ),
    );
    const patch = sent.filter((s) => s.method === "PATCH");
    expect(patch.at(-1)).toEqual({
      method: "PATCH",
      url: `/api/alerts/rules/${rule.id}`,
      body: { threshold: 40, destination_id: team.id, cooldown_minutes: 90 },
    });
    expect(item.textContent).toContain("The score is below 40");
    expect(item.textContent).toContain("To Team · cooldown 90 minutes");
    expect(within(item).getByTestId("rule-state").textContent).toBe("OK");
    await waitFor(() => expect(document.activeElement).toBe(within(item).getByRole("button", { name: 'Edit the rule "The score is below 40"' })));
    expect(await store.alerts.rule(ws, rule.id)).toMatchObject({ threshold: 40, destinationId: team.id, cooldownMs: 90 * 60_000 });
  });
});

describe("the weekly digest", () => {
  const renderIn = (tz: string) =>
    renderWithProviders(
      <ViewerTimeZoneProvider tz={tz}>
        <AlertsSection />
      </ViewerTimeZoneProvider>,
    );

  it("its time in the workspace's zone and the reader's; the preview is the route's text and its HTML in a sandboxed frame; Send now is delivered and listed", async () => {
    const ops = await keptDestination("Ops");
    await store.alerts.setDigest(ws, ops.id);
    const { user } = renderIn("Europe/Berlin");
    const card = await screen.findByTestId("digest-card");
    // The workspace's zone is UTC; the reader is in Berlin.
    await waitFor(() =>
      expect(within(card).getByTestId("digest-next").textContent).toMatch(
        /^Next digest: Monday \d{1,2} [A-Z][a-z]{2} \d{4} at 09:00 UTC, 10:00 your time \(Berlin time\)\.$/,
      ),
    );

    const toggle = within(card).getByRole("button", { name: "Preview" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    await user.click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    const preview = within(card).getByTestId("digest-preview");
    expect(toggle.getAttribute("aria-controls")).toBe(preview.id);
    const route = (await (await appRoutesAsFetch(cookie)("/api/alerts/digest/preview")).json()) as { subject: string; text: string; html: string };
    await waitFor(() => expect(within(preview).getByTestId("digest-preview-text").textContent).toBe(route.text));
    expect(within(preview).getByRole("heading", { name: route.subject })).toBeTruthy();
    const frame = within(preview).getByTitle(`The weekly digest as an e-mail: ${route.subject}`) as HTMLIFrameElement;
    expect(frame.getAttribute("srcdoc")).toBe(route.html);
    // Sandboxed: no script, no access to this page (no allow-scripts, no allow-same-origin).
    expect(frame.getAttribute("sandbox")).toBe("allow-popups allow-popups-to-escape-sandbox");

    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    fireEvent.click(within(card).getByRole("button", { name: "Send now" }));
    await waitFor(() =>
      expect(within(card).getByTestId("digest-status").textContent).toMatch(
        /^The weekly digest of \d{1,2} [A-Z][a-z]{2} – \d{1,2} [A-Z][a-z]{2} \d{4} was sent to Ops: its delivery shows under Deliveries\.$/,
      ),
    );
    expect(sent.filter((s) => s.method === "POST").map((s) => s.url)).toEqual(["/api/alerts/digest/send"]);
    const [request] = await receiver.waitFor(1);
    expect(verifySignature("whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0", request!)).toBe(true);
    expect(request!.json).toMatchObject({ type: "digest.weekly" });
    const deliveries = screen.getByTestId("deliveries-card");
    await waitFor(async () => {
      await act(() => vi.advanceTimersByTimeAsync(DELIVERY_POLL_MS));
      expect(within(deliveries).getAllByTestId("delivery-response")[0]!.textContent).toBe("HTTP 200");
    });
    const row = within(deliveries).getAllByTestId("delivery-row")[0]!;
    expect(row.textContent).toContain("Weekly digest");
    expect(within(row).getByTestId("delivery-status").textContent).toBe("Delivered");
  });

  it("off: Send now waits for a destination; choosing one offers to start watching, which is done with it", async () => {
    await keptDestination("Ops");
    const { user } = renderIn("UTC");
    const card = await screen.findByTestId("digest-card");
    await waitFor(() => expect(within(card).getByTestId("digest-next").textContent).toBe("No digest is sent."));
    const send = within(card).getByRole("button", { name: "Send now" });
    expect((send as HTMLButtonElement).disabled).toBe(true);
    expect(document.getElementById(send.getAttribute("aria-describedby")!)!.textContent).toBe("Choose where the digest goes and save, then send one now.");
    // The destinations are read apart from the digest: chosen once listed.
    await within(card).findByRole("option", { name: "Ops" });
    await user.selectOptions(within(card).getByRole("combobox", { name: "Send it to" }), "Ops");
    expect(within(card).getByTestId("digest-watch-offer").textContent).toContain("so the digest would not be sent");
    await user.click(within(card).getByRole("button", { name: "Start watching and save" }));
    await waitFor(() => expect(within(card).getByTestId("digest-status").textContent).toBe("Watching is on. The weekly digest goes to Ops."));
    expect(sent.filter((s) => s.method !== "GET").map((s) => `${s.method} ${s.url}`)).toEqual(["PUT /api/workspace/watch", "PUT /api/alerts/digest"]);
    // The digest goes at Monday 09:00 in the zone of the member who set it up.
    expect(sent.find((s) => s.method === "PUT" && s.url === "/api/alerts/digest")?.body).toEqual({
      destination_id: expect.any(String),
      share_id: null,
      time_zone: "UTC",
    });
    await waitFor(() => expect((within(card).getByRole("button", { name: "Send now" }) as HTMLButtonElement).disabled).toBe(false));
    expect(within(card).queryByTestId("digest-watch-offer")).toBeNull();
  });

  /** A share link kept before the test, as the route would keep it. */
  const keptShare = (name: string, path: string, expiresAt: number | null = null, on: WorkspaceId = ws) =>
    store.shares.create(on, { name, path, query: {}, token: `${name}`.replace(/\W/g, "").padEnd(32, "0").slice(0, 32), passwordHash: null, expiresAt });
  const describedBy = (element: HTMLElement) =>
    (element.getAttribute("aria-describedby") ?? "")
      .split(" ")
      .filter(Boolean)
      .map((id) => document.getElementById(id)!.textContent);
  const LINKS_HELP = "For recipients without the key: only the figures of the shared page get a link, and it opens the shared page for the digest's week.";

  it("without share links the links' choice is the dashboard pages, disabled, saying how to make one", async () => {
    const ops = await keptDestination("Ops");
    await store.workspaces.setWatching(ws, DEMO_KEYS.pro);
    await store.alerts.setDigest(ws, ops.id);
    renderIn("UTC");
    const card = await screen.findByTestId("digest-card");
    await within(card).findByTestId("digest-links-none");
    const links = within(card).getByRole("combobox", { name: "Links in the digest" }) as HTMLSelectElement;
    expect(links.disabled).toBe(true);
    expect(links.value).toBe("");
    expect([...links.options].map((o) => o.textContent)).toEqual(["Dashboard pages (recipients sign in with the key)"]);
    expect(describedBy(links)).toEqual([LINKS_HELP, "Make a share link from a page's Share button to offer one here."]);
  });

  it("a share link chosen by keyboard is saved with the digest, kept and announced; one that no longer opens is refused on its field", async () => {
    const ops = await keptDestination("Ops");
    await store.workspaces.setWatching(ws, DEMO_KEYS.pro);
    await store.alerts.setDigest(ws, ops.id);
    const traffic = await keptShare("AI traffic", "/platforms");
    const overview = await keptShare("Board", "/");
    // Neither offered: one that expired, and another workspace's.
    await keptShare("Old", "/", Date.now() - 60_000);
    await keptShare("Theirs", "/", null, (await store.workspaces.workspaceForKey(DEMO_KEYS.free)).id);
    const { user } = renderIn("UTC");
    const card = await screen.findByTestId("digest-card");
    const links = (await within(card).findByRole("combobox", { name: "Links in the digest" })) as HTMLSelectElement;
    await waitFor(() => expect(links.options).toHaveLength(3));
    await within(card).findByRole("option", { name: "Ops" });
    // The dashboard pages first, then the links newest first (these two made in the same instant).
    const offered = [...links.options].map((o) => o.textContent);
    expect(offered[0]).toBe("Dashboard pages (recipients sign in with the key)");
    expect(offered.slice(1).sort()).toEqual(["Share link: AI traffic (AI platforms)", "Share link: Board (Overview)"]);
    expect(links.disabled).toBe(false);
    expect(describedBy(links)).toEqual([LINKS_HELP]);

    // By keyboard: from where it goes to its links, chosen, then to Save.
    within(card).getByRole("combobox", { name: "Send it to" }).focus();
    await user.tab();
    expect(document.activeElement).toBe(links);
    await user.selectOptions(links, "Share link: AI traffic (AI platforms)");
    await user.tab();
    const save = within(card).getByRole("button", { name: "Save" });
    expect(document.activeElement).toBe(save);
    await user.keyboard("{Enter}");
    await waitFor(() =>
      expect(within(card).getByTestId("digest-status").textContent).toBe("The weekly digest goes to Ops, its links through the share link AI traffic."),
    );
    expect(sent.filter((s) => s.method === "PUT").map((s) => s.body)).toEqual([{ destination_id: ops.id, share_id: traffic.id, time_zone: "UTC" }]);
    expect(await store.alerts.digest(ws)).toEqual({ destinationId: ops.id, shareId: traffic.id });
    expect(links.value).toBe(traffic.id);

    // Revoked meanwhile (elsewhere): choosing another one still works; the one revoked is refused on its field.
    await store.shares.remove(ws, overview.id);
    await user.selectOptions(links, "Share link: Board (Overview)");
    await user.click(within(card).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(links.getAttribute("aria-invalid")).toBe("true"));
    const error = "That share link no longer opens (it was revoked or has expired). Choose another one, or the dashboard pages.";
    expect(describedBy(links)).toEqual([error, LINKS_HELP]);
    expect(within(card).getByRole("alert").textContent).toBe(error);
    expect(await store.alerts.digest(ws)).toEqual({ destinationId: ops.id, shareId: traffic.id });

    // Back to the dashboard pages: the error goes with the change, and the choice is saved.
    await user.selectOptions(links, "Dashboard pages (recipients sign in with the key)");
    expect(links.getAttribute("aria-invalid")).toBeNull();
    await user.click(within(card).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(within(card).getByTestId("digest-status").textContent).toBe("The weekly digest goes to Ops."));
    expect(await store.alerts.digest(ws)).toEqual({ destinationId: ops.id, shareId: null });

    // Off: no links to choose.
    await user.selectOptions(within(card).getByRole("combobox", { name: "Send it to" }), "Never (off)");
    expect(links.disabled).toBe(true);
  });

  it("a share link with a password, chosen, says its recipients need the password given another way", async () => {
    const ops = await keptDestination("Ops");
    await store.workspaces.setWatching(ws, DEMO_KEYS.pro);
    await store.alerts.setDigest(ws, ops.id);
    await store.shares.create(ws, { name: "Locked", path: "/", query: {}, token: "L".repeat(32), passwordHash: "scrypt$kept", expiresAt: null });
    await keptShare("Open", "/platforms");
    const { user } = renderIn("UTC");
    const card = await screen.findByTestId("digest-card");
    const links = (await within(card).findByRole("combobox", { name: "Links in the digest" })) as HTMLSelectElement;
    await waitFor(() => expect(links.options).toHaveLength(3));
    const PASSWORD = "This link asks for its password: give it to the digest's recipients some other way.";
    await user.selectOptions(links, "Share link: Locked (Overview)");
    expect(describedBy(links)).toEqual([LINKS_HELP, PASSWORD]);
    await user.selectOptions(links, "Share link: Open (AI platforms)");
    expect(describedBy(links)).toEqual([LINKS_HELP]);
    expect(within(card).queryByTestId("digest-links-password")).toBeNull();
  });
});
