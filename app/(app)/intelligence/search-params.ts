// The /intelligence URL: the app's date range (`from`, `to`, `tz`; lib/range/date-range.ts), which
// drives the page's history, read by the server page with this loader and by the client through
// useDateRange, from one declaration.
import { createLoader } from "nuqs/server";
import { dateRangeSearchParams } from "@/lib/range/date-range";

export const loadRangeSearch = createLoader(dateRangeSearchParams);
