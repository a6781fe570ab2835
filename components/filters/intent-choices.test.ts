import { describe, expect, it } from "vitest";
import { intentChoices } from "./intent-choices";

describe("the intent filter's choices", () => {
  it("labels the known intents, then adds values seen in the rows once each, as sent", () => {
    const choices = intentChoices(["pricing_research", "newsletter_signup", null, "newsletter_signup", undefined]);
    expect(choices[0]).toEqual({ value: "problem_research", label: "Researching a problem" });
    expect(choices.filter((c) => c.value === "pricing_research")).toHaveLength(1);
    expect(choices.at(-1)).toEqual({ value: "newsletter_signup", label: "Newsletter signup" });
    expect(choices).toHaveLength(7);
  });
});
