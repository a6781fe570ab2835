// Notes on the charts in Chromium, as a team uses them: a note written in one session shows in another
// session of the same key (when its window regains focus, and after a reload), on the trend and on the
// other time charts of the range; edited and deleted in place, the delete asked first. Each run writes
// notes with its own text (marked MARK) and deletes every such note before and after, so a rerun on
// the same server, even after a failed one, starts clean.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { dayText, rangeText, utcDate } from "./helpers/clock";
import { BASE_URL, openPage, signIn, waitForWidgets } from "./helpers/session";

// The last 30 days, and days in it for the notes (e2e/helpers/clock.ts).
const RANGE = `from=${utcDate(-29)}&to=${utcDate(0)}&tz=UTC`;
const NOTE_DAY = utcDate(-17);
const SPAN = { from: utcDate(-10), to: utcDate(-8), edited: utcDate(-9) };
const MARK = "[e2e]";

/** Deletes this spec's notes through the route, as another script would. */
async function deleteOwnNotes(page: Page): Promise<void> {
  const listed = (await (await page.request.get(`${BASE_URL}/api/annotations?${RANGE}`)).json()) as { data: { id: string; text: string }[] };
  for (const n of listed.data.filter((n) => n.text.startsWith(MARK))) {
    expect((await page.request.delete(`${BASE_URL}/api/annotations/${n.id}`, { headers: { Origin: BASE_URL } })).status()).toBe(204);
  }
}

async function session(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ timezoneId: "UTC" });
  const page = await context.newPage();
  await signIn(page, "pro");
  return page;
}

// Two sessions and several pages, each counting its insights cold on a loaded machine.
test.describe.configure({ timeout: 150_000 });

const trendNotes = (page: Page) => page.getByRole("region", { name: "Notes on the trend" });

/** The window regains focus, as React Query hears it (a hidden tab becoming visible again). */
const regainFocus = (page: Page) => page.evaluate(() => window.dispatchEvent(new Event("visibilitychange")));

test("a note written in one session shows in another session of the same key, on focus and after a reload", async ({ browser }) => {
  const text = `${MARK} Campaign paused ${Date.now()}`;
  const [writer, reader] = [await session(browser), await session(browser)];
  await deleteOwnNotes(writer);
  await openPage(reader, `/?${RANGE}`);
  await expect(trendNotes(reader)).toBeVisible();
  await expect(trendNotes(reader).getByText(text)).toHaveCount(0);

  await openPage(writer, `/?${RANGE}`);
  const notes = trendNotes(writer);
  await notes.getByRole("button", { name: "Add note" }).click();
  const form = notes.getByTestId("note-form");
  await form.getByLabel("Day (first day of a span)").fill(NOTE_DAY);
  await form.getByLabel("Note", { exact: true }).fill(text);
  await expect(form.getByTestId("note-count")).toHaveText(`${text.length} of 280 characters`);
  await form.getByLabel("Your name (optional)").fill("Ana");
  await form.getByRole("button", { name: "Save note" }).click();
  await expect(writer.getByTestId("notes-status").first()).toHaveText(`Note on ${dayText(NOTE_DAY)} saved.`);
  await expect(notes.getByText(text)).toBeVisible();
  // Drawn on the chart: a flag named by the note, its text on keyboard focus.
  const flag = writer.getByRole("button", { name: `Note, ${dayText(NOTE_DAY)}: ${text} (Ana)` });
  await flag.focus();
  await expect(writer.getByRole("tooltip")).toContainText(text);

  await regainFocus(reader);
  await expect(trendNotes(reader).getByText(text)).toBeVisible();
  await reader.reload();
  await waitForWidgets(reader);
  await expect(trendNotes(reader).getByText(text)).toBeVisible();
  // The same note on the other time charts of the range.
  await openPage(reader, `/platforms?${RANGE}`);
  await expect(reader.getByRole("region", { name: "Notes on sentiment over time" }).getByText(text)).toBeVisible();

  // The author is remembered by the writer's browser for the next note.
  await notes.getByRole("button", { name: "Add note" }).click();
  await expect(notes.getByTestId("note-form").getByLabel("Your name (optional)")).toHaveValue("Ana");
  await notes.getByTestId("note-form").getByRole("button", { name: "Cancel" }).click();

  await deleteOwnNotes(writer);
  await writer.context().close();
  await reader.context().close();
});

test("a note is edited and deleted in place; the other session sees both", async ({ browser }) => {
  const text = `${MARK} Price test ${Date.now()}`;
  const [writer, reader] = [await session(browser), await session(browser)];
  await deleteOwnNotes(writer);
  const created = await writer.request.post(`${BASE_URL}/api/annotations`, {
    data: { date: SPAN.from, end_date: SPAN.to, text },
    headers: { Origin: BASE_URL },
  });
  expect(created.status()).toBe(201);

  await openPage(writer, `/?${RANGE}`);
  const notes = trendNotes(writer);
  const item = notes.getByTestId("note-item").filter({ hasText: text });
  await item.getByRole("button", { name: `Edit the note of ${rangeText(SPAN.from, SPAN.to)}` }).click();
  const form = notes.getByTestId("note-form");
  await expect(form.getByLabel("Note", { exact: true })).toHaveValue(text);
  await form.getByLabel("Note", { exact: true }).fill(`${text} (ended early)`);
  await form.getByLabel("Last day (optional)").fill(SPAN.edited);
  await form.getByRole("button", { name: "Save changes" }).click();

  await openPage(reader, `/intelligence?${RANGE}`);
  await expect(reader.getByText(`${text} (ended early)`).first()).toBeVisible();

  const edited = notes.getByTestId("note-item").filter({ hasText: `${text} (ended early)` });
  await expect(edited).toContainText(rangeText(SPAN.from, SPAN.edited));
  await edited.getByRole("button", { name: `Delete the note of ${rangeText(SPAN.from, SPAN.edited)}` }).click();
  const ask = edited.getByRole("group", { name: `Delete the note of ${rangeText(SPAN.from, SPAN.edited)}?` });
  await expect(ask.getByRole("button", { name: "Yes, delete" })).toBeFocused();
  await ask.getByRole("button", { name: "Yes, delete" }).click();
  await expect(writer.getByTestId("notes-status").first()).toHaveText(`Note on ${rangeText(SPAN.from, SPAN.edited)} deleted.`);
  await expect(notes.getByText(text)).toHaveCount(0);

  await reader.reload();
  await waitForWidgets(reader);
  await expect(reader.getByTestId("chart-notes").first()).toBeVisible();
  await expect(reader.getByTestId("notes-loading")).toHaveCount(0);
  await expect(reader.getByText(text)).toHaveCount(0);
  await writer.context().close();
  await reader.context().close();
});
