// A visitor's activity timeline, generated on request from the visitor's own seed. It agrees with the
// visitor's row by construction: first event at first_seen, last at last_seen, one page_view per page
// viewed, an ai_referral for AI sources, return_visit events between sessions, form_submit for leads,
// and exactly one conversion event iff converted. Events are oldest first.
import { PAGES, PAGES_BY_INTENT, type Page } from "./catalog";
import { KNOWN_INTENTS, SOURCES, type TimelineType } from "./contract";
import { mulberry32, pick, randInt } from "./prng";
import { isAiSourceIndex, visitorId, visitorSeed, type VisitorColumns } from "./visitors";

export type TimelineEventJson = {
  id: string;
  type: TimelineType;
  occurred_at: string;
  url?: string;
  title?: string;
  source?: string;
  duration_seconds?: number;
};

const AI_REFERRERS: Record<string, { url: string; title: string }> = {
  chatgpt: { url: "https://chatgpt.com/", title: "Referred by ChatGPT" },
  perplexity: { url: "https://www.perplexity.ai/", title: "Referred by Perplexity" },
  claude: { url: "https://claude.ai/", title: "Referred by Claude" },
  gemini: { url: "https://gemini.google.com/", title: "Referred by Gemini" },
};

type Draft = Omit<TimelineEventJson, "id" | "occurred_at"> & { session: number; gapBefore: number };

export function visitorTimeline(cols: VisitorColumns, row: number): { visitor_id: string; data: TimelineEventJson[] } {
  const rng = mulberry32(visitorSeed(cols, row));
  const id = visitorId(cols, row);
  const sessions = cols.sessions[row]!;
  const pages = cols.pages[row]!;
  const source = SOURCES[cols.source[row]!]!;
  const ai = isAiSourceIndex(cols.source[row]!);
  const intent = KNOWN_INTENTS[cols.intent[row]!]!;
  const lead = cols.lead[row] === 1;
  const converted = cols.converted[row] === 1;
  const catalog: readonly Page[] = PAGES_BY_INTENT[intent] ?? PAGES_BY_INTENT.unknown!;

  // Every session views at least one page; the rest are spread at random.
  const perSession = new Array<number>(sessions).fill(1);
  for (let extra = pages - sessions; extra > 0; extra--) perSession[Math.floor(rng() * sessions)]!++;

  const drafts: Draft[] = [];
  for (let s = 0; s < sessions; s++) {
    if (s === 0 && ai) drafts.push({ type: "ai_referral", source, ...AI_REFERRERS[source], session: s, gapBefore: 0 });
    if (s > 0) drafts.push({ type: "return_visit", session: s, gapBefore: 0 });
    const n = perSession[s]!;
    for (let k = 0; k < n; k++) {
      const lastPageOfLead = lead && s === sessions - 1 && k === n - 1;
      const page = lastPageOfLead ? (rng() < 0.5 ? PAGES.demo : PAGES.signup) : pick(rng, catalog);
      drafts.push({
        type: "page_view",
        url: page.url,
        title: page.title,
        ...(s === 0 && k === 0 ? { source } : {}),
        session: s,
        // The first page of a session opens it (same instant as the referral / return visit).
        gapBefore: k === 0 ? 0 : randInt(rng, 15, 240),
      });
    }
  }
  if (lead)
    drafts.push({ type: "form_submit", url: drafts[drafts.length - 1]!.url, title: "Form submitted", session: sessions - 1, gapBefore: randInt(rng, 30, 150) });
  if (converted) drafts.push({ type: "conversion", title: "Started a paid plan", session: sessions - 1, gapBefore: randInt(rng, 5, 90) });
  if (drafts[0]) drafts[0].gapBefore = 0;

  // Fit the gaps into [first_seen, last_seen]: time inside sessions as drawn, the rest between
  // sessions; when the span is shorter (the visitor was cut off at "now"), everything scales down.
  const spanSec = (cols.lastSeen[row]! - cols.firstSeen[row]!) / 1000;
  const inSession = drafts.reduce((sum, d) => sum + d.gapBefore, 0);
  const weights = Array.from({ length: Math.max(0, sessions - 1) }, () => 0.2 + rng());
  const weightSum = weights.reduce((a, b) => a + b, 0);
  let boundary = 0;
  const gaps = drafts.map((d, i) => {
    if (i > 0 && d.session !== drafts[i - 1]!.session) return { inter: true, w: weights[boundary++]! };
    return { inter: false, w: d.gapBefore };
  });
  let scaleIn = 1;
  let interTotal = spanSec - inSession;
  if (interTotal < 0 || (sessions > 1 && interTotal < sessions)) {
    // Not enough room: share the span in proportion to all gaps (inter-session ones weigh a minute).
    const total = inSession + (sessions - 1) * 60;
    scaleIn = total === 0 ? 0 : spanSec / total;
    interTotal = (sessions - 1) * 60 * scaleIn;
  }
  const firstMs = cols.firstSeen[row]!;
  let t = 0;
  const data: TimelineEventJson[] = drafts.map((d, i) => {
    const gap = gaps[i]!;
    t += gap.inter ? (weightSum === 0 ? 0 : (interTotal * gap.w) / weightSum) : gap.w * scaleIn;
    const sec = i === drafts.length - 1 ? spanSec : Math.min(spanSec, Math.round(t));
    const { session: _session, gapBefore: _gap, type, ...fields } = d;
    return { id: `evt_${id.slice(4)}_${String(i + 1).padStart(3, "0")}`, type, occurred_at: new Date(firstMs + sec * 1000).toISOString(), ...fields };
  });
  // Time on page: until the next event of the same session, or a plausible read for a session's last page.
  data.forEach((e, i) => {
    if (e.type !== "page_view") return;
    const next = data[i + 1];
    const sameSession = next && drafts[i + 1]!.session === drafts[i]!.session;
    e.duration_seconds = sameSession ? Math.round((Date.parse(next.occurred_at) - Date.parse(e.occurred_at)) / 1000) : randInt(rng, 10, 180);
  });
  return { visitor_id: id, data };
}
