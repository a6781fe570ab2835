// Every day summariser's module, loaded for what it registers (registry.ts): a new dimension is its
// module and one line here. Loaded by context.ts, so no listing starts before all have registered.
import "./visitors";
import "./countries";
import "./mentions";
import "./queries";
