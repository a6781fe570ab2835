// `/locations` - where the visitors are: a world map shaded by visitors or conversion rate and the
// table of countries (its accessible twin) with AI visitors, conversions, rate and their changes
// against the header's comparison; a country opens its top cities (`country=XX`). The widgets load
// in the browser, each on its own.
import type { Metadata } from "next";
import { LocationsClient } from "./client";

export const metadata: Metadata = { title: "Locations" };

export default function LocationsPage() {
  return <LocationsClient />;
}
