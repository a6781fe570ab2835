import { describe, expect, it } from "vitest";
import { eventLabel, intentLabelOf, metricLabelOf, sentimentLabelOf, sourceGroupLabelOf } from "./labels";

describe("value labels", () => {
  it("label the known values of each set", () => {
    expect(intentLabelOf("problem_research")).toBe("Problem research");
    expect(sentimentLabelOf("negative")).toBe("Negative");
    expect(eventLabel("ai_referral")).toBe("Arrived from an AI platform");
    expect(sourceGroupLabelOf("ai")).toBe("AI platforms");
    expect(metricLabelOf("ai_traffic")).toBe("AI traffic");
  });

  it("leave any other value, Object.prototype's names included, to be shown as sent", () => {
    for (const label of [intentLabelOf, sentimentLabelOf, eventLabel, sourceGroupLabelOf, metricLabelOf]) {
      for (const value of ["webinar_signup", "constructor", "toString", "__proto__", ""]) expect(label(value), value).toBeUndefined();
    }
  });
});
