// How the questions of /queries show their declared columns (lib/columns/queries.ts): the question
// names its row and titles its card, a link to its mentions of the range (as many as its figure);
// in a card the mentions and the platforms' read down one block, the positions and the share named
// first down another beside it, and the sentiment split runs across under them.
import { AppLink as Link } from "@/components/shares/shared-view";
import type { Sort } from "@/components/data-table/table-sort";
import { QUESTION_COLUMNS } from "@/lib/columns/queries";
import { formatCount, formatDecimal, formatPercent } from "@/lib/format/format";
import { columnsFor, type TableColumn } from "../table-column";
import styles from "./columns.module.css";

/** A question's row, flat: its platforms' and sentiment counts a column each; `href` opens its mentions. */
export type QuestionTableRow = {
  key: string;
  query: string;
  mentions: number;
  chatgpt: number;
  claude: number;
  perplexity: number;
  gemini: number;
  avg_position: number | null;
  best_position: number | null;
  worst_position: number | null;
  first_share: number | null;
  positive: number;
  neutral: number;
  negative: number;
  href: string;
};

const { column } = columnsFor<QuestionTableRow>()(QUESTION_COLUMNS);

const MENTIONS = { id: "mentions" };
const POSITION = { id: "position" };
const SENTIMENT = { id: "sentiment", across: true };

export const QUESTION_TABLE_COLUMNS: readonly TableColumn<QuestionTableRow>[] = [
  column("query", {
    rowHeader: true,
    cardTitle: true,
    // Wide enough that a question wraps over two or three lines rather than a word a line.
    minWidth: "12rem",
    cell: (r) => (
      <Link href={r.href} prefetch={false} aria-label={`${r.query}: open its ${formatCount(r.mentions, "mention")}`}>
        {r.query}
      </Link>
    ),
  }),
  column("mentions", { cardGroup: MENTIONS }),
  column("chatgpt", { cardGroup: MENTIONS }),
  column("claude", { cardGroup: MENTIONS }),
  column("perplexity", { cardGroup: MENTIONS }),
  column("gemini", { cardGroup: MENTIONS }),
  column("avg_position", { cardGroup: POSITION, cell: (r) => formatDecimal(r.avg_position) }),
  column("best_position", { cardGroup: POSITION }),
  column("worst_position", { cardGroup: POSITION }),
  column("first_share", { cardGroup: POSITION, cell: (r) => formatPercent(r.first_share) }),
  column("positive", { cardGroup: SENTIMENT, labelClass: styles.positive }),
  column("neutral", { cardGroup: SENTIMENT, labelClass: styles.neutral }),
  column("negative", { cardGroup: SENTIMENT, labelClass: styles.negative }),
];

/** The questions' own order, as the answer lists them: most mentions first; `sort` in the URL. */
export const QUESTION_TABLE_SORT: { param: string; defaultSort: Sort } = { param: "sort", defaultSort: { id: "mentions", desc: true } };

export const questionRowKey = (r: QuestionTableRow): string => r.key;
