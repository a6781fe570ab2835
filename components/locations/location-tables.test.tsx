// @vitest-environment jsdom
// The countries and cities tables as people use them: sorted by a header's button (a click, Enter or
// Space), the sorted header saying so with aria-sort and the order written to the URL (`sort`,
// `city_sort`), and read back from a link; the totals row adding the counts and working the rate out
// again from them; every change showing the figure it is compared with. And the cards a phone shows
// instead (jsdom applies no CSS, so both layouts are in the document): a card per country or city
// with every figure under its label, the chosen country marked, the totals as the last card.
import { screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { UrlUpdateEvent } from "nuqs/adapters/testing";
import { renderWithProviders } from "@/components/test-utils/render";
import type { CountriesInsight, CountryFigures } from "@/lib/insights/countries";
import { CitiesTable, CountriesTable } from "./location-tables";

const figures = (visitors: number, ai_visitors: number, conversions: number): CountryFigures => ({
  visitors,
  ai_visitors,
  conversions,
  conversion_rate: visitors === 0 ? null : Math.round((conversions * 1000) / visitors) / 10,
});

// As the route answers: most visitors first. Germany converts best (8.0%), the unknown country has no rate.
const ANSWER: CountriesInsight = {
  from: "2026-11-01",
  to: "2026-11-30",
  tz: "UTC",
  compare: { from: "2026-10-02", to: "2026-10-31" },
  data: [
    { country: "US", ...figures(1000, 300, 50), previous: figures(800, 200, 40) },
    { country: "DE", ...figures(500, 100, 40), previous: figures(500, 120, 30) },
    { country: "unknown", ...figures(0, 0, 0), previous: figures(20, 0, 1) },
    { country: "AT", ...figures(40, 10, 1), previous: figures(0, 0, 0) },
  ],
};

function renderCountries(searchParams = "") {
  const onUrlUpdate = vi.fn<(event: UrlUpdateEvent) => void>();
  const view = renderWithProviders(<CountriesTable answer={ANSWER} selected={null} countryHref={(code) => `/locations?country=${code}`} />, {
    searchParams,
    onUrlUpdate,
  });
  return { ...view, onUrlUpdate, lastSort: () => onUrlUpdate.mock.lastCall?.[0].searchParams.get("sort") };
}

const rowOrder = () => screen.getAllByTestId("country-row").map((r) => r.dataset.key);
const header = (name: string) => screen.getByRole("columnheader", { name: new RegExp(`^${name}`) });

describe("the countries table's order", () => {
  it("opens in the answer's order, which its Visitors header says (descending); the others are unsorted buttons", () => {
    renderCountries();
    expect(rowOrder()).toEqual(["US", "DE", "AT", "unknown"]);
    expect(header("Visitors").getAttribute("aria-sort")).toBe("descending");
    for (const name of ["Country", "AI visitors", "Conversions", "Conversion rate"]) {
      expect(header(name).hasAttribute("aria-sort")).toBe(false);
      expect(within(header(name)).getByRole("button").tagName).toBe("BUTTON");
    }
  });

  it("a click sorts by that figure, largest first, and writes it to the URL", async () => {
    const { user, lastSort } = renderCountries();
    await user.click(screen.getByRole("button", { name: /^Conversion rate/ }));
    expect(lastSort()).toBe("-conversion_rate");
    expect(header("Conversion rate").getAttribute("aria-sort")).toBe("descending");
    expect(header("Visitors").hasAttribute("aria-sort")).toBe(false);
    // 8.0%, 5.0%, 2.5%; the unknown country's rate ("—") last.
    expect(rowOrder()).toEqual(["DE", "US", "AT", "unknown"]);
  });

  it("by keyboard: Enter sorts, Space turns the order round, a third press goes back to the table's own order", async () => {
    const { user, lastSort, onUrlUpdate } = renderCountries();
    screen.getByRole("button", { name: /^Conversions/ }).focus();
    await user.keyboard("{Enter}");
    expect(lastSort()).toBe("-conversions");
    expect(header("Conversions").getAttribute("aria-sort")).toBe("descending");
    await user.keyboard(" ");
    expect(lastSort()).toBe("conversions");
    expect(header("Conversions").getAttribute("aria-sort")).toBe("ascending");
    expect(rowOrder()).toEqual(["unknown", "AT", "DE", "US"]);
    await user.keyboard("{Enter}");
    // The table's own order is no parameter at all.
    expect(onUrlUpdate.mock.lastCall![0].searchParams.has("sort")).toBe(false);
    expect(header("Visitors").getAttribute("aria-sort")).toBe("descending");
    expect(rowOrder()).toEqual(["US", "DE", "AT", "unknown"]);
  });

  it("names sort A to Z first, by the name read (Austria, Germany, United States, then Unknown country)", async () => {
    const { user, lastSort } = renderCountries();
    await user.click(screen.getByRole("button", { name: /^Country/ }));
    expect(lastSort()).toBe("country");
    expect(header("Country").getAttribute("aria-sort")).toBe("ascending");
    expect(rowOrder()).toEqual(["AT", "DE", "US", "unknown"]);
  });

  it("a link's order is the order shown (a saved view, a shared URL); one naming no column is the table's own", () => {
    renderCountries("?sort=ai_visitors");
    expect(header("AI visitors").getAttribute("aria-sort")).toBe("ascending");
    expect(rowOrder()).toEqual(["unknown", "AT", "DE", "US"]);
  });

  it("a sort parameter naming no column is the table's own order", () => {
    renderCountries("?sort=-pageviews");
    expect(header("Visitors").getAttribute("aria-sort")).toBe("descending");
    expect(rowOrder()).toEqual(["US", "DE", "AT", "unknown"]);
  });
});

describe("the countries' totals", () => {
  it("add the counts of every country (the unknown one too) and work the rate out from the sums", () => {
    renderCountries();
    const total = screen.getByTestId("countries-total");
    expect(within(total).getByRole("rowheader").textContent).toContain("All countries");
    const cells = within(total).getAllByRole("cell");
    expect(cells.map((c) => c.textContent!.split(" ")[0])).toEqual(["1,540", "410", "91", "5.9%"]);
    // 91 of 1,540 is 5.9%; the mean of the rows' rates would be 5.2%.
    expect(cells[3]!.textContent).not.toContain("5.2%");
  });

  it("each total's change shows its base: counts from the previous total, the rate in points from the previous rate", () => {
    renderCountries();
    const [visitors, , conversions, rate] = within(screen.getByTestId("countries-total")).getAllByRole("cell");
    // 1,540 against 1,320 is up 16.7%; 91 against 71 up 28.2%; 5.9% against 5.4% (71 of 1,320) up 0.5 pts.
    expect(within(visitors!).getByTestId("change-base").textContent).toContain("from 1,320");
    expect(within(visitors!).getByTestId("change").textContent).toContain("up 16.7% from 1,320 in the previous 30 days (2 Oct – 31 Oct 2026)");
    expect(within(conversions!).getByTestId("change").textContent).toContain("up 28.2% from 71 in");
    expect(within(rate!).getByTestId("change-base").textContent).toContain("from 5.4%");
    expect(within(rate!).getByTestId("change").textContent).toContain("up 0.5 points from 5.4% in");
  });

  it("stay under the rows whatever their order", async () => {
    const { user } = renderCountries();
    await user.click(screen.getByRole("button", { name: /^Country/ }));
    const rows = screen.getAllByRole("row");
    expect(rows.at(-1)).toBe(screen.getByTestId("countries-total"));
  });
});

describe("a row's changes", () => {
  it("show the count compared with, and growth from none as new from 0", () => {
    renderCountries();
    const austria = screen.getAllByTestId("country-row").find((r) => r.dataset.key === "AT")!;
    expect(within(austria).getAllByTestId("change-base")[0]!.textContent).toContain("from 0");
    expect(within(austria).getAllByTestId("change")[0]!.textContent).toContain("up from 0 in");
    const germany = screen.getAllByTestId("country-row").find((r) => r.dataset.key === "DE")!;
    expect(
      within(germany)
        .getAllByTestId("change-base")
        .map((b) => b.textContent),
    ).toEqual(["from 500", "from 120", "from 30", "from 6.0%"]);
  });
});

describe("the cities table", () => {
  const cities = [
    { city: "Berlin", visitors: 30, conversions: 1 },
    { city: "unknown", visitors: 12, conversions: 3 },
    { city: "Munich", visitors: 20, conversions: 2 },
  ];

  it("sorts by its own parameter (city_sort), leaving the countries' alone", async () => {
    const onUrlUpdate = vi.fn<(event: UrlUpdateEvent) => void>();
    const { user } = renderWithProviders(<CitiesTable cities={cities} caption="Top cities in Germany" />, { searchParams: "?sort=-conversions", onUrlUpdate });
    await user.click(screen.getByRole("button", { name: /^Conversions/ }));
    const search = onUrlUpdate.mock.lastCall![0].searchParams;
    expect(search.get("city_sort")).toBe("-conversions");
    expect(search.get("sort")).toBe("-conversions");
    expect(screen.getAllByTestId("city-row").map((r) => within(r).getByRole("rowheader").textContent)).toEqual(["City not known", "Munich", "Berlin"]);
  });

  it("adds up the cities listed, and says they are the ones listed", () => {
    renderWithProviders(<CitiesTable cities={cities} caption="Top cities in Germany" />);
    const total = screen.getByTestId("cities-total");
    expect(within(total).getByRole("rowheader").textContent).toContain("The 3 cities listed");
    expect(
      within(total)
        .getAllByRole("cell")
        .map((c) => c.textContent),
    ).toEqual(["62", "6"]);
  });
});

describe("the cards (a phone)", () => {
  const figures = (card: HTMLElement) =>
    [...card.querySelectorAll("dl > div")].map((d) => [d.querySelector("dt")!.textContent, d.querySelector("dd")!.textContent]);

  it("a card per country, titled by its link to its cities, each figure under its label with its change and base; the chosen one marked", () => {
    renderWithProviders(<CountriesTable answer={ANSWER} selected="DE" countryHref={(code) => `/locations?country=${code}`} />);
    const cards = screen.getAllByTestId("country-row-card");
    expect(cards.map((c) => c.dataset.key)).toEqual(["US", "DE", "AT", "unknown"]);
    const germany = cards[1]!;
    expect(germany.getAttribute("aria-current")).toBe("true");
    expect(cards.filter((c) => c.hasAttribute("aria-current"))).toHaveLength(1);
    expect(within(germany).getByRole("link", { name: "Germany: open its top cities" }).getAttribute("href")).toBe("/locations?country=DE");
    const shown = figures(germany);
    expect(shown.map(([label]) => label)).toEqual(["Visitors", "AI visitors", "Conversions", "Conversion rate (%)"]);
    expect(shown.map(([, value]) => value!.split(" ")[0])).toEqual(["500", "100", "40", "8.0%"]);
    expect(
      within(germany)
        .getAllByTestId("change-base")
        .map((b) => b.textContent),
    ).toEqual(["from 500", "from 120", "from 30", "from 6.0%"]);
  });

  it("the countries' totals are the last card, under the rows whatever their order", async () => {
    const { user } = renderCountries();
    await user.selectOptions(screen.getByRole("combobox", { name: "Sort by" }), "Country, A to Z");
    const list = within(screen.getByTestId("countries-table-cards")).getAllByRole("listitem");
    expect(list.map((c) => c.dataset.key ?? c.dataset.testid)).toEqual(["AT", "DE", "US", "unknown", "countries-total-card"]);
    const total = list.at(-1)!;
    expect(total.querySelector("p")!.textContent).toBe("All countries");
    expect(figures(total).map(([, value]) => value!.split(" ")[0])).toEqual(["1,540", "410", "91", "5.9%"]);
  });

  it("a card per city, its two counts labelled, the cities' totals last", () => {
    renderWithProviders(
      <CitiesTable
        cities={[
          { city: "Berlin", visitors: 30, conversions: 1 },
          { city: "unknown", visitors: 12, conversions: 3 },
        ]}
        caption="Top cities in Germany"
      />,
    );
    const list = within(screen.getByTestId("cities-table-cards")).getAllByRole("listitem");
    expect(list.map((c) => [c.querySelector("p")!.textContent, ...figures(c).flat()])).toEqual([
      ["Berlin", "Visitors", "30", "Conversions", "1"],
      ["City not known", "Visitors", "12", "Conversions", "3"],
      ["The 2 cities listed", "Visitors", "42", "Conversions", "4"],
    ]);
  });
});
