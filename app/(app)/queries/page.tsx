// `/queries` - the questions put to AI platforms whose answers mention the brand: mentions per
// platform, average, best and worst position, how often the brand is named first, sentiment; filters
// for a platform and "never first". The table loads in the browser as a widget of its own.
import type { Metadata } from "next";
import { QueriesClient } from "./client";

export const metadata: Metadata = { title: "Queries" };

export default function QueriesPage() {
  return <QueriesClient />;
}
