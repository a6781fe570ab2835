// One AI platform's chain from being mentioned to converting: mentions -> visitors it sent ->
// conversions -> conversion rate, each a real link to the rows behind it (where there are rows) with
// its change against the previous period; then how it talked about the brand (the sentiment split,
// drawn and in numbers) and where it placed the brand (average position). A card on phones, a row
// from tablet widths up (platforms.module.css, by the list's own width). The list closes with all
// AI platforms together (PlatformsTotal).
import { AppLink as Link } from "@/components/shares/shared-view";
import { ChangeBadge, ChangeBase } from "@/components/ui/change-badge";
import { LABELS } from "@/lib/data-api/constants";
import { ARROWS, formatDecimal, formatNumber, formatPercent, MISSING, type ChangeDirection } from "@/lib/format/format";
import type { DateRange } from "@/lib/range/date-range";
import type { PlatformPrevious, PlatformRow } from "@/lib/insights/platforms";
import type { Sentiments } from "@/lib/insights/mentions";
import { mentionsHref, negativeShare, positiveShare, SENTIMENT_LABELS, sentimentShares, sentimentShareTest, visitorsHref } from "./platforms-data";
import styles from "./platforms.module.css";
import { countsTest } from "@/lib/stats/exact-tests";
import { judge } from "@/lib/stats/significance";

export function PlatformChain({ row, range, window }: { row: PlatformRow; range: DateRange; window: string }) {
  const name = LABELS[row.platform] ?? row.platform;
  const headingId = `platform-${row.platform}`;
  return (
    <li className={styles.platform} aria-labelledby={headingId} data-testid="platform-row" data-platform={row.platform}>
      <h3 id={headingId} className={styles.name}>
        {name}
      </h3>
      <ol className={styles.chain} aria-label={`${name}: from mentions to conversions`}>
        <Step label="Mentions" testId="mentions" value={row.mentions} href={mentionsHref(range, { platform: row.platform })} linkLabel={`${name} mentions`}>
          <ChangeBadge current={row.mentions} previous={row.previous.mentions} significance={judge(row, "mentions")} unit="count" window={window} compact />
        </Step>
        <Step label="Visitors" testId="visitors" value={row.visitors} href={visitorsHref(range, row.platform)} linkLabel={`Visitors from ${name}`}>
          <ChangeBadge current={row.visitors} previous={row.previous.visitors} significance={judge(row, "visitors")} unit="count" window={window} compact />
        </Step>
        <Step
          label="Conversions"
          testId="conversions"
          value={row.conversions}
          href={visitorsHref(range, row.platform, true)}
          linkLabel={`Converted visitors from ${name}`}
        >
          <ChangeBadge
            current={row.conversions}
            previous={row.previous.conversions}
            significance={judge(row, "conversions")}
            unit="count"
            window={window}
            compact
          />
        </Step>
        <Step label="Conversion rate" testId="rate" text={formatPercent(row.conversion_rate)}>
          <ChangeBadge
            current={row.conversion_rate}
            previous={row.previous.conversion_rate}
            significance={judge(row, "conversion_rate")}
            unit="rate"
            window={window}
            compact
          />
        </Step>
      </ol>
      <div className={styles.sentiment}>
        <p className={styles.label}>Sentiment</p>
        <SentimentSplit sentiment={row.sentiment} range={range} platform={row.platform} name={name} />
        <SentimentChanges now={row.sentiment} before={row.previous.sentiment} window={window} />
      </div>
      <div className={styles.position}>
        <p className={styles.label}>Average position</p>
        <p className={styles.value} data-testid="avg-position">
          {formatDecimal(row.avg_position)}
        </p>
        <p className={styles.foot}>
          <PositionChange current={row.avg_position} previous={row.previous.avg_position} window={window} />
        </p>
      </div>
    </li>
  );
}

/**
 * All AI platforms together, after them: the summed counts, the rate from the sums, the summed split,
 * each with its change. Plain figures, not links: the lists filter one platform (or source) at a time.
 * No average position: it cannot be worked out from the platforms' own.
 */
export function PlatformsTotal({ total, window }: { total: PlatformPrevious & { previous: PlatformPrevious }; window: string }) {
  const name = "All AI platforms";
  return (
    <li className={`${styles.platform} ${styles.total}`} aria-labelledby="platform-total" data-testid="platforms-total">
      <h3 id="platform-total" className={styles.name}>
        {name}
      </h3>
      <ol className={styles.chain} aria-label={`${name}: from mentions to conversions`}>
        <Step label="Mentions" testId="mentions" value={total.mentions}>
          <ChangeBadge
            current={total.mentions}
            previous={total.previous.mentions}
            significance={judge(total, "mentions")}
            unit="count"
            window={window}
            compact
          />
        </Step>
        <Step label="Visitors" testId="visitors" value={total.visitors}>
          <ChangeBadge
            current={total.visitors}
            previous={total.previous.visitors}
            significance={judge(total, "visitors")}
            unit="count"
            window={window}
            compact
          />
        </Step>
        <Step label="Conversions" testId="conversions" value={total.conversions}>
          <ChangeBadge
            current={total.conversions}
            previous={total.previous.conversions}
            significance={judge(total, "conversions")}
            unit="count"
            window={window}
            compact
          />
        </Step>
        <Step label="Conversion rate" testId="rate" text={formatPercent(total.conversion_rate)}>
          <ChangeBadge
            current={total.conversion_rate}
            previous={total.previous.conversion_rate}
            significance={judge(total, "conversion_rate")}
            unit="rate"
            window={window}
            compact
          />
        </Step>
      </ol>
      <div className={styles.sentiment}>
        <p className={styles.label}>Sentiment</p>
        <SentimentSplit sentiment={total.sentiment} name={name} />
        <SentimentChanges now={total.sentiment} before={total.previous.sentiment} window={window} />
      </div>
      <div className={styles.position}>
        <p className={styles.label}>Average position</p>
        <p className={styles.value} data-testid="avg-position">
          {MISSING}
        </p>
        <p className={styles.foot}>Not added up across platforms</p>
      </div>
    </li>
  );
}

/** How the split moved: the positive and the negative share, and the negative mentions themselves (a share can hold while the count doubles). */
function SentimentChanges({ now, before, window }: { now: Sentiments; before: Sentiments; window: string }) {
  const lines = [
    {
      label: "positive share",
      badge: (
        <ChangeBadge
          current={positiveShare(now)}
          previous={positiveShare(before)}
          significance={sentimentShareTest(now, before, "positive")}
          unit="rate"
          window={window}
          compact
        />
      ),
    },
    {
      label: "negative share",
      badge: (
        <ChangeBadge
          current={negativeShare(now)}
          previous={negativeShare(before)}
          significance={sentimentShareTest(now, before, "negative")}
          unit="rate"
          window={window}
          compact
        />
      ),
    },
    {
      label: "negative mentions",
      badge: (
        <ChangeBadge
          current={now.negative}
          previous={before.negative}
          significance={countsTest(now.negative, before.negative)}
          unit="count"
          window={window}
          compact
        />
      ),
    },
  ];
  return (
    <ul className={styles.sentimentChanges} data-testid="sentiment-changes">
      {lines.map((line) => (
        <li key={line.label} className={styles.foot}>
          <span>{line.label[0]!.toUpperCase() + line.label.slice(1)}:</span> {line.badge}
        </li>
      ))}
    </ul>
  );
}

function Step({
  label,
  value,
  text,
  href,
  linkLabel,
  testId,
  children,
}: {
  label: string;
  value?: number;
  text?: string;
  href?: string;
  linkLabel?: string;
  testId: string;
  children: React.ReactNode;
}) {
  const shown = text ?? formatNumber(value);
  return (
    <li className={styles.step} data-testid={`chain-${testId}`}>
      <span className={styles.label}>{label}</span>
      <span className={styles.value}>
        {href && value !== undefined && value > 0 ? (
          <Link href={href} aria-label={`${linkLabel}: ${shown}`} data-testid={`link-${testId}`} prefetch={false}>
            {shown}
          </Link>
        ) : (
          <span data-testid={`value-${testId}`}>{shown}</span>
        )}
      </span>
      <span className={styles.foot}>{children}</span>
    </li>
  );
}

/** The split as one bar of three parts (decorative) and the three counts with shares, each linking to those mentions (given their `range`). */
export function SentimentSplit({ sentiment, range, platform, name }: { sentiment: Sentiments; range?: DateRange; platform?: string; name: string }) {
  const shares = sentimentShares(sentiment);
  return (
    <>
      <span className={styles.bar} aria-hidden="true">
        {shares.map((s) => (s.share ? <span key={s.key} className={styles[`bar-${s.key}`]} style={{ width: `${s.share}%` }} /> : null))}
      </span>
      <ul className={styles.split} aria-label={`${name} sentiment`} data-testid="sentiment-split">
        {shares.map((s) => (
          <li key={s.key} data-sentiment={s.key}>
            <span className={`${styles.dot} ${styles[`bar-${s.key}`]}`} aria-hidden="true" />
            {SENTIMENT_LABELS[s.key]}{" "}
            {s.count > 0 && range ? (
              <Link
                href={mentionsHref(range, { platform, sentiment: s.key })}
                prefetch={false}
                aria-label={`${name}: ${s.count} ${s.key} mentions`}
                data-testid="sentiment-count"
              >
                {formatNumber(s.count)}
              </Link>
            ) : (
              <span data-testid="sentiment-count">{formatNumber(s.count)}</span>
            )}{" "}
            <span className="muted">({formatPercent(s.share)})</span>
          </li>
        ))}
      </ul>
    </>
  );
}

/** A move in average position: a lower number is a better place, so going down reads as up. Its base shows as a change badge's does. */
export function PositionChange({ current, previous, window }: { current: number | null; previous: number | null; window: string }) {
  if (current === null || previous === null) {
    const words = `change unknown vs ${window}`;
    return (
      <span className="change change-flat" title={words}>
        <span aria-hidden="true">{MISSING}</span>
        <span className="visually-hidden">{words}</span>
      </span>
    );
  }
  const diff = Math.round((previous - current) * 10) / 10;
  const dir: ChangeDirection = diff > 0 ? "up" : diff < 0 ? "down" : "flat";
  const places = `${formatDecimal(Math.abs(diff))} ${Math.abs(diff) === 1 ? "place" : "places"}`;
  const base = `from ${formatDecimal(previous)}`;
  const words = `${diff === 0 ? "same place" : `${places} ${diff > 0 ? "better" : "worse"}`} ${base} in ${window}`;
  return (
    <span className={styles.positionChange} title={words} data-testid="position-change">
      <span className={`change change-${dir}`} aria-hidden="true">
        <span className="change-arrow">{ARROWS[dir]}</span>
        {diff === 0 ? "same" : `${formatDecimal(Math.abs(diff))} ${diff > 0 ? "better" : "worse"}`}
      </span>
      <ChangeBase>{base}</ChangeBase>
      <span className="visually-hidden">{words}</span>
    </span>
  );
}
