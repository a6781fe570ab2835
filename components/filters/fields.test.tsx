// @vitest-environment jsdom
// The filter controls as a person uses them: choosing or typing a value calls back with it (the page
// puts it in the URL), and an invalid value in the URL is shown on its field, announced with it
// (aria-invalid, aria-describedby naming the message).
import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { renderWithProviders } from "@/components/test-utils/render";
import { DateField, SelectField, SuggestField } from "./fields";

/** The text of the element(s) a field's aria-describedby names. */
const description = (field: HTMLElement) =>
  (field.getAttribute("aria-describedby") ?? "")
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent)
    .join(" ");

const sourceGroups = [
  { label: "AI platforms", options: [{ value: "chatgpt", label: "ChatGPT" }] },
  { label: "Other sources", options: [{ value: "organic", label: "Organic search" }] },
];

describe("SelectField", () => {
  it("calls back with the value chosen, and with '' for Any", async () => {
    const onChange = vi.fn();
    const { user } = renderWithProviders(<SelectField name="source" label="Source" value="" onChange={onChange} groups={sourceGroups} />);
    const select = screen.getByRole("combobox", { name: "Source" });
    await user.selectOptions(select, "Organic search");
    expect(onChange).toHaveBeenLastCalledWith("organic");
    await user.selectOptions(select, "Any");
    expect(onChange).toHaveBeenLastCalledWith("");
    expect(screen.getByRole("group", { name: "AI platforms" })).toBeTruthy();
    expect(select.getAttribute("aria-invalid")).toBeNull();
    expect(select.getAttribute("aria-describedby")).toBeNull();
  });

  it("shows an invalid value from the URL as chosen, marked invalid, with the error on the field", () => {
    renderWithProviders(
      <SelectField name="source" label="Source" value="myspace" onChange={() => {}} groups={sourceGroups} error="source must be one of chatgpt, organic" />,
    );
    const select = screen.getByRole<HTMLSelectElement>("combobox", { name: "Source" });
    expect(select.value).toBe("myspace");
    expect(screen.getByRole("option", { name: "myspace (invalid)" })).toBeTruthy();
    expect(select.getAttribute("aria-invalid")).toBe("true");
    expect(description(select)).toBe("source must be one of chatgpt, organic");
  });
});

describe("DateField", () => {
  it("applies a date typed by keyboard on Enter, as typed: nothing half-typed is sent", async () => {
    const onChange = vi.fn();
    const { user } = renderWithProviders(<DateField name="from" label="First seen from" value="" onChange={onChange} />);
    const input = screen.getByRole("textbox", { name: "First seen from" });
    await user.type(input, "2026-11-01");
    expect(onChange).not.toHaveBeenCalled();
    await user.keyboard("{Enter}");
    expect(onChange).toHaveBeenCalledExactlyOnceWith("2026-11-01");
  });

  it("applies a date picked from the calendar at once", () => {
    const onChange = vi.fn();
    const { container } = renderWithProviders(<DateField name="from" label="First seen from" value="" onChange={onChange} />);
    expect(screen.getByRole("button", { name: "Open a calendar for First seen from" })).toBeTruthy();
    // jsdom has no calendar: a change event with the picked value is what the browser sends.
    fireEvent.change(container.querySelector('input[type="date"]')!, { target: { value: "2026-11-01" } });
    expect(onChange).toHaveBeenCalledWith("2026-11-01");
    expect(screen.getByRole<HTMLInputElement>("textbox", { name: "First seen from" }).value).toBe("2026-11-01");
  });

  it("says on the field when a typed value is not a date, and does not apply it", async () => {
    const onChange = vi.fn();
    const { user } = renderWithProviders(<DateField name="to" label="First seen to" value="" onChange={onChange} />);
    const input = screen.getByRole("textbox", { name: "First seen to" });
    await user.type(input, "0002-11-01");
    await user.tab();
    expect(onChange).not.toHaveBeenCalled();
    expect(input.getAttribute("aria-invalid")).toBe("true");
    // In plain words, with what to type; not the API's "must be an ISO 8601 date".
    expect(description(input)).toBe("This end date is not a date the dashboard can use. Type it as year-month-day, e.g. 2026-11-30.");
  });

  it("shows the instant of a datetime from the URL as a hint it is described by", () => {
    renderWithProviders(<DateField name="from" label="First seen from" value="2026-10-21" onChange={() => {}} hint={<span>21 Oct 2026, 12:00 (UTC)</span>} />);
    const input = screen.getByRole<HTMLInputElement>("textbox", { name: "First seen from" });
    expect(input.value).toBe("2026-10-21");
    expect(screen.getByText("21 Oct 2026, 12:00 (UTC)")).toBeTruthy();
    expect(description(input)).toBe("21 Oct 2026, 12:00 (UTC)");
  });

  it("marks an invalid date from the URL and names the message, without the hint", () => {
    renderWithProviders(
      <DateField
        name="to"
        label="First seen to"
        value="2026-13-45T00:00:00Z"
        onChange={() => {}}
        error="to must be an ISO 8601 date"
        hint={<span>hint</span>}
      />,
    );
    const input = screen.getByRole("textbox", { name: "First seen to" });
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(description(input)).toBe("to must be an ISO 8601 date");
    expect(screen.queryByText("hint")).toBeNull();
  });
});

describe("SuggestField", () => {
  const intents = ["problem_research", "solution_comparison"];

  it("applies typed text on Enter, trimmed, and says how in its description", async () => {
    const onChange = vi.fn();
    const { user } = renderWithProviders(<SuggestField name="intent" label="Intent" value="" suggestions={intents} onChange={onChange} />);
    const input = screen.getByRole("combobox", { name: "Intent" });
    expect(description(input)).toBe("Pick a suggestion or type any value, then press Enter");
    await user.type(input, "  newsletter ");
    expect(onChange).not.toHaveBeenCalled();
    await user.keyboard("{Enter}");
    expect(onChange).toHaveBeenCalledExactlyOnceWith("newsletter");
  });

  it("reads how its value is matched (a note) with its help; cleared, it applies nothing", async () => {
    const onChange = vi.fn();
    const note = "However it is written: capitals and spaces around it do not count.";
    const { user } = renderWithProviders(
      <SuggestField name="query" label="Question" value="Best tool?" suggestions={["Best tool?"]} onChange={onChange} note={note} />,
    );
    const input = screen.getByRole("combobox", { name: "Question" });
    expect(description(input)).toBe(`${note} Pick a suggestion or type any value, then press Enter`);
    // Read, not shown: the field's box stays in line with the filters' row.
    expect(screen.getByText(`${note} Pick a suggestion or type any value, then press Enter`).className).toBe("visually-hidden");
    await user.clear(input);
    await user.keyboard("{Enter}");
    expect(onChange).toHaveBeenCalledExactlyOnceWith("");
  });

  it("applies a suggestion as soon as it is picked, and a draft when the field is left", async () => {
    const onChange = vi.fn();
    const { user } = renderWithProviders(<SuggestField name="intent" label="Intent" value="" suggestions={intents} onChange={onChange} />);
    const input = screen.getByRole("combobox", { name: "Intent" });
    // Picking from the datalist sets the whole value at once.
    fireEvent.change(input, { target: { value: "solution_comparison" } });
    expect(onChange).toHaveBeenLastCalledWith("solution_comparison");
    await user.clear(input);
    await user.type(input, "support");
    await user.tab();
    expect(onChange).toHaveBeenLastCalledWith("support");
  });

  it("does not call back when the value did not change", async () => {
    const onChange = vi.fn();
    const { user } = renderWithProviders(<SuggestField name="intent" label="Intent" value="support" suggestions={intents} onChange={onChange} />);
    await user.click(screen.getByRole("combobox", { name: "Intent" }));
    await user.keyboard("{Enter}");
    await user.tab();
    expect(onChange).not.toHaveBeenCalled();
  });

  it("follows the URL when it changes under it (back, clear filters)", () => {
    const { rerender } = renderWithProviders(<SuggestField name="intent" label="Intent" value="support" suggestions={intents} onChange={() => {}} />);
    rerender(<SuggestField name="intent" label="Intent" value="" suggestions={intents} onChange={() => {}} />);
    expect(screen.getByRole<HTMLInputElement>("combobox", { name: "Intent" }).value).toBe("");
  });

  it("offers labelled choices and shows the label of the value applied", () => {
    const { container } = renderWithProviders(
      <SuggestField
        name="intent"
        label="Intent"
        value="pricing_research"
        suggestions={[{ value: "pricing_research", label: "Researching pricing" }]}
        onChange={() => {}}
      />,
    );
    expect(container.querySelector('datalist option[value="pricing_research"]')?.getAttribute("label")).toBe("Researching pricing");
    expect(screen.getByTestId("intent-label").textContent).toBe("Researching pricing");
    // Both are read: the value's label and how to use the field.
    expect(description(screen.getByRole("combobox", { name: "Intent" }))).toBe("Researching pricing Pick a suggestion or type any value, then press Enter");
  });

  it("marks an invalid intent and names the message instead of the help", () => {
    renderWithProviders(
      <SuggestField name="intent" label="Intent" value="Not An Intent" suggestions={intents} onChange={() => {}} error="intent must be a token" />,
    );
    const input = screen.getByRole("combobox", { name: "Intent" });
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(description(input)).toBe("intent must be a token");
  });
});
