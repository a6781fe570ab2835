"use client";
// The button of an e-mail's link page (/mail/confirm/{token}, /mail/unsubscribe/{token}): opening the
// page changes nothing (mail scanners follow links); pressing the button posts to the link's route
// (/api/mail/{action}/{token}) and says what came of it. No session is needed or used.
import { useState } from "react";
import { isDataApiError } from "@/lib/data-api/errors";
import { sendJson } from "@/lib/queries/api";

export type MailAction = "confirm" | "unsubscribe";

const WORDS: Record<MailAction, { title: string; lead: string; button: string; busy: string; done: (name: string) => string }> = {
  confirm: {
    title: "Confirm your address",
    lead: "This address was added as an e-mail destination of a Workspace Analytics dashboard, for its alerts and weekly digest. Nothing is sent to it until you confirm.",
    button: "Confirm",
    busy: "Confirming…",
    done: (name) => `Confirmed: alerts and digests of “${name}” will be e-mailed to this address. Every e-mail has a link to unsubscribe.`,
  },
  unsubscribe: {
    title: "Unsubscribe",
    lead: "Stop every e-mail to this address from this Workspace Analytics destination.",
    button: "Unsubscribe",
    busy: "Unsubscribing…",
    done: (name) => `Unsubscribed: nothing more from “${name}” is sent to this address.`,
  },
};

export function MailLinkAction({ action, token }: { action: MailAction; token: string }) {
  const words = WORDS[action];
  const [state, setState] = useState<{ kind: "idle" | "busy" } | { kind: "done" | "problem"; text: string }>({ kind: "idle" });

  async function press() {
    setState({ kind: "busy" });
    try {
      const answer = await sendJson<{ name: string; status: string }>("POST", `/api/mail/${action}/${encodeURIComponent(token)}`);
      setState({ kind: "done", text: words.done(answer?.name ?? "this destination") });
    } catch (error) {
      const gone = isDataApiError(error) && error.status === 404;
      setState({
        kind: "problem",
        text: gone
          ? "This link does not work (any more): it was used already, or its destination was deleted."
          : "That did not go through. Check your connection and try again.",
      });
    }
  }

  return (
    <main className="auth-page" id="main">
      <div className="card auth-card stack" data-testid={`mail-${action}`}>
        <h1>{words.title}</h1>
        <p className="muted">{words.lead}</p>
        {state.kind === "done" ? (
          <p role="status" data-testid="mail-done">
            {state.text}
          </p>
        ) : (
          <>
            <button type="button" className="button" disabled={state.kind === "busy"} onClick={() => void press()} data-testid="mail-button">
              {state.kind === "busy" ? words.busy : words.button}
            </button>
            {state.kind === "problem" && (
              <p className="field-error" role="alert" data-testid="mail-problem">
                {state.text}
              </p>
            )}
          </>
        )}
      </div>
    </main>
  );
}
