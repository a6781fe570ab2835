"use client";
// The world map loaded after the page: its code and geography (d3-geo, the 1:110m countries) stay out of
// the first load, and the table, the map's accessible twin, shows meanwhile.
import dynamic from "next/dynamic";
import { MAP_HEIGHT, MAP_WIDTH } from "./map-size";

export const WorldMap = dynamic(() => import("./world-map").then((m) => m.WorldMap), {
  ssr: false,
  loading: () => <div style={{ aspectRatio: `${MAP_WIDTH} / ${MAP_HEIGHT}` }} className="skeleton" aria-hidden="true" />,
});
