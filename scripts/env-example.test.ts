// `.env.example` is generated from the declarations of the environment and must never drift from them.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { POLL_MS } from "../lib/alerts/deliver";
import { SEND_TIMEOUT_MS } from "../lib/alerts/send";
import { dashboardEnvSchema } from "../lib/config/env-schema";
import { DEFAULT_TICK_MS } from "../lib/store/scheduler";
import { sandboxEnvSchema } from "../sandbox/config";
import { documentedVariables, ENV_EXAMPLE_PATH, renderEnvExample } from "./env-example";

describe(".env.example", () => {
  it("is what `npm run env:example` generates from the declarations (run it after changing one)", () => {
    expect(readFileSync(ENV_EXAMPLE_PATH, "utf8")).toBe(renderEnvExample());
  });

  it.each([
    ["dashboard", dashboardEnvSchema],
    ["sandbox", sandboxEnvSchema],
  ])("every %s example value is one its declaration accepts", (_, schema) => {
    for (const v of documentedVariables(schema).filter((d) => d.value !== "")) {
      expect(v.field.safeParse(v.value).success, `${v.name}=${v.value}`).toBe(true);
    }
  });

  it("names every variable, each once, and only the app's in the dashboard part", () => {
    const names = [...renderEnvExample().matchAll(/^# ([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
    expect(names).toEqual([...Object.keys(dashboardEnvSchema.shape), ...Object.keys(sandboxEnvSchema.shape)]);
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(dashboardEnvSchema.shape).some((n) => n.startsWith("SANDBOX_"))).toBe(false);
  });

  it("is described in docs/operations.md too: its configuration table names every variable", () => {
    const doc = readFileSync(path.resolve(path.dirname(ENV_EXAMPLE_PATH), "docs/operations.md"), "utf8");
    const names = [...Object.keys(dashboardEnvSchema.shape), ...Object.keys(sandboxEnvSchema.shape)];
    expect(names.filter((name) => !doc.includes(`\`${name}\``))).toEqual([]);
  });

  it("refuses a declaration without a description, or without a default or what unset means", () => {
    expect(() => documentedVariables(z.object({ UNDOCUMENTED: z.string().optional() }))).toThrow(/UNDOCUMENTED needs \.meta/);
    // A description attached before `.optional()` stays on the inner schema and is lost.
    expect(() => documentedVariables(z.object({ LOST: z.string().meta({ description: "x" }).optional() }))).toThrow(/LOST needs \.meta/);
    expect(() => documentedVariables(z.object({ VAGUE: z.string().optional().meta({ description: "x" }) }))).toThrow(/VAGUE has no default/);
  });

  it("gives the background timings the defaults their modules have (the env only overrides them)", () => {
    const defaults = dashboardEnvSchema.parse({});
    expect([defaults.JOBS_TICK_MS, defaults.ALERTS_POLL_MS, defaults.ALERTS_SEND_TIMEOUT_MS]).toEqual([DEFAULT_TICK_MS, POLL_MS, SEND_TIMEOUT_MS]);
  });
});
