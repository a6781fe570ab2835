// `/visitors` - the visitor table with filters, paging and export, streamed
// (components/list-view/list-view-page.tsx).
import type { Metadata } from "next";
import { listViewPage } from "@/components/list-view/list-view-page";
import { VisitorsClient } from "./client";
import { loadVisitorsSearch } from "./search-params";

export const metadata: Metadata = { title: "Visitors" };

export default listViewPage("/visitors", loadVisitorsSearch, <VisitorsClient />);
