"use client";
// The world map of /locations: each country shaded by its visitors or conversion rate in five steps,
// the chosen country outlined, a click opening its top cities. The drawing is hidden from screen
// readers and takes no keyboard focus: the countries' table beside it is its accessible twin (every
// figure, every country, the "unknown" row, and the same links), so nothing is only on the map.
// Loaded after the page (components/locations/lazy-map.tsx): the geography is bundled, never fetched.
import { useMemo } from "react";
import { countryName, shading, shadeValue, type CountryRow, type MapMetric } from "./locations-data";
import { MAP_HEIGHT, MAP_WIDTH } from "./map-size";
import { countryShapes } from "./world-geography";
import styles from "./locations.module.css";
import { formatNumber, formatPercent } from "@/lib/format/format";

export type WorldMapProps = {
  rows: readonly CountryRow[];
  metric: MapMetric;
  selected: string | null;
  /** Opens a country's cities (the same link as its row in the table). */
  onSelect: (country: string) => void;
};

export function WorldMap({ rows, metric, selected, onSelect }: WorldMapProps) {
  const shapes = countryShapes();
  const { steps } = useMemo(() => shading(rows, metric), [rows, metric]);
  const byCode = useMemo(() => new Map(rows.map((r) => [r.country, r])), [rows]);
  return (
    <svg className={styles.map} viewBox={`0 0 ${MAP_WIDTH} ${MAP_HEIGHT}`} aria-hidden="true" data-testid="world-map" focusable="false">
      {shapes.map((s, i) => {
        const row = s.code ? byCode.get(s.code) : undefined;
        const step = s.code ? steps.get(s.code) : undefined;
        const value = row ? shadeValue(row, metric) : null;
        const title = `${s.code ? countryName(s.code) : s.name}: ${
          value === null ? "no visitors" : metric === "visitors" ? `${formatNumber(value)} visitors` : `${formatPercent(value)} conversion rate`
        }`;
        return (
          <path
            key={`${s.code}-${i}`}
            d={s.d}
            className={`${styles.country} ${step === undefined ? styles.shadeNone : styles[`shade${step}`]} ${s.code && s.code === selected ? styles.selected : ""} ${row ? styles.clickable : ""}`}
            data-country={s.code || undefined}
            data-step={step}
            onClick={row ? () => onSelect(s.code) : undefined}
          >
            <title>{title}</title>
          </path>
        );
      })}
    </svg>
  );
}
