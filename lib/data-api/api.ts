// What a page or route needs from the Data API. Implemented twice with the same canonical shapes:
// on the server by the upstream client (with the session's key), in the browser by a fetcher that
// calls this app's /api route handlers. React Query option factories take either.
import type { MentionListParams, PeriodParams, VisitorListParams } from "./params";
import type { Funnel, ListEnvelope, Mention, Overview, Ranking, Score, Traffic, Visitor, VisitorTimeline } from "./schemas";

export type CallOptions = {
  /** Exports page at bulk priority so interactive use stays responsive. */
  priority?: "interactive" | "bulk";
  signal?: AbortSignal;
};

export interface DataApi {
  listVisitors(params: VisitorListParams, options?: CallOptions): Promise<ListEnvelope<Visitor>>;
  getVisitor(id: string, options?: CallOptions): Promise<Visitor>;
  getVisitorTimeline(id: string, options?: CallOptions): Promise<VisitorTimeline>;
  listMentions(params: MentionListParams, options?: CallOptions): Promise<ListEnvelope<Mention>>;
  getOverview(params: PeriodParams, options?: CallOptions): Promise<Overview>;
  getTraffic(params: PeriodParams, options?: CallOptions): Promise<Traffic>;
  getFunnel(params: PeriodParams, options?: CallOptions): Promise<Funnel>;
  getScore(options?: CallOptions): Promise<Score>;
  getRanking(options?: CallOptions): Promise<Ranking>;
}
