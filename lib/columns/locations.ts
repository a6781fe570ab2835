// The columns of /locations: the countries of the range's visitors and a country's top cities, the
// tables and their cards.
import { col, defineColumns } from "./column";

export const COUNTRY_COLUMNS = defineColumns({
  country: col.text("Country"),
  visitors: col.integer("Visitors"),
  ai_visitors: col.integer("AI visitors"),
  conversions: col.integer("Conversions"),
  conversion_rate: col.percent("Conversion rate"),
});

export const CITY_COLUMNS = defineColumns({
  city: col.text("City"),
  visitors: col.integer("Visitors"),
  conversions: col.integer("Conversions"),
});
