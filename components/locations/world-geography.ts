// The world's countries as SVG paths, from Natural Earth's 1:110m shapes that world-atlas ships as
// TopoJSON: bundled with the app at build time (nothing is fetched at run time), projected once per
// page load with d3-geo's Equal Earth (areas true to size, so a shaded country's size is not
// exaggerated) and keyed by ISO 3166-1 alpha-2 code (world-atlas names countries by their numeric
// code; iso-3166 maps it). Antarctica is left out: no visitors, and a sixth of the map.
import { geoEqualEarth, geoPath } from "d3-geo";
import { iso31661 } from "iso-3166";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import countries110m from "world-atlas/countries-110m.json";
import { MAP_HEIGHT, MAP_WIDTH } from "./map-size";

export type CountryShape = { code: string; name: string; d: string };

const ANTARCTICA = "010";
const ALPHA2_BY_NUMERIC = new Map(iso31661.map((c) => [c.numeric, c.alpha2]));

let shapes: CountryShape[] | null = null;

/** Every country of the map with a code (three disputed areas without one are drawn as land, uncoded). */
export function countryShapes(): CountryShape[] {
  if (shapes) return shapes;
  const topology = countries110m as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>;
  const collection = feature(topology, topology.objects.countries);
  const features = collection.features.filter((f) => f.id !== ANTARCTICA);
  const projection = geoEqualEarth().fitSize([MAP_WIDTH, MAP_HEIGHT], { type: "FeatureCollection", features });
  const path = geoPath(projection);
  shapes = features.map((f) => ({ code: ALPHA2_BY_NUMERIC.get(String(f.id)) ?? "", name: f.properties.name, d: path(f) ?? "" }));
  return shapes;
}
