// The demo workspaces the sign-in page offers, in the page's own words. The sandbox describes its
// demo keys for developers ("403 forbidden on /intelligence/* …"); someone trying the dashboard needs
// to know what each workspace shows. Only the id, the plan and these words reach the browser: never
// a key, never the sandbox's text.

export type DemoOption = { id: string; plan: string; description: string };

/** What each demo workspace is, for someone choosing one: what they will see, not how it is made. */
const DEMO_DESCRIPTIONS: Record<string, string> = {
  free: "The demo workspace on the Free plan. Large exports take longer.",
  pro: "The demo workspace on the Pro plan.",
  empty: "A new workspace with no visitors or mentions yet.",
  limited: "The demo workspace, with a key that cannot see the AI Positioning Score, the competitor ranking or visitors' activity.",
};

/** The sign-in page's demo choices from the sandbox's demo keys (whatever else those carry is left behind). */
export function demoOptions(keys: ReadonlyArray<{ id: string; plan: string }>): DemoOption[] {
  return keys.map(({ id, plan }) => ({ id, plan, description: DEMO_DESCRIPTIONS[id] ?? "A demo workspace with made-up data." }));
}
