// `/mentions` - the feed of AI mentions of the brand, with filters, paging and export, streamed
// (components/list-view/list-view-page.tsx).
import type { Metadata } from "next";
import { listViewPage } from "@/components/list-view/list-view-page";
import { MentionsClient } from "./client";
import { loadMentionsSearch } from "./search-params";

export const metadata: Metadata = { title: "Mentions" };

export default listViewPage("/mentions", loadMentionsSearch, <MentionsClient />);
