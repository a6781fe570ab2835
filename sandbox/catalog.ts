// Fixed vocabularies for the generated workspace: brand, competitors, places, names, pages, queries.
// Plausible but fictional companies; cities are real and belong to their country.

export const BRAND = "Northwind Analytics";

export const COMPETITORS = ["Brightmetric", "Signalytics", "Clearpath Insights", "Datawise", "Pulseboard", "Trackwell", "Lumen Metrics"] as const;

/** Countries (ISO 3166-1 alpha-2), their weight in traffic, and real cities in them. */
export const COUNTRIES: ReadonlyArray<{ code: string; weight: number; cities: readonly string[] }> = [
  { code: "US", weight: 34, cities: ["New York", "San Francisco", "Austin", "Chicago", "Seattle", "Boston", "Denver", "Atlanta"] },
  { code: "GB", weight: 10, cities: ["London", "Manchester", "Edinburgh", "Bristol", "Leeds"] },
  { code: "DE", weight: 8, cities: ["Berlin", "Munich", "Hamburg", "Cologne", "Frankfurt"] },
  { code: "IN", weight: 8, cities: ["Bengaluru", "Mumbai", "Delhi", "Pune", "Hyderabad"] },
  { code: "CA", weight: 6, cities: ["Toronto", "Vancouver", "Montreal", "Calgary"] },
  { code: "FR", weight: 5, cities: ["Paris", "Lyon", "Marseille", "Toulouse"] },
  { code: "AU", weight: 4, cities: ["Sydney", "Melbourne", "Brisbane", "Perth"] },
  { code: "NL", weight: 4, cities: ["Amsterdam", "Rotterdam", "Utrecht", "Eindhoven"] },
  { code: "BR", weight: 4, cities: ["São Paulo", "Rio de Janeiro", "Belo Horizonte", "Curitiba"] },
  { code: "ES", weight: 3, cities: ["Madrid", "Barcelona", "Valencia", "Seville"] },
  { code: "SE", weight: 3, cities: ["Stockholm", "Gothenburg", "Malmö"] },
  { code: "SG", weight: 3, cities: ["Singapore"] },
  { code: "JP", weight: 3, cities: ["Tokyo", "Osaka", "Yokohama", "Fukuoka"] },
  { code: "PL", weight: 2, cities: ["Warsaw", "Kraków", "Wrocław", "Gdańsk"] },
  { code: "IT", weight: 2, cities: ["Milan", "Rome", "Turin", "Bologna"] },
  { code: "IE", weight: 1, cities: ["Dublin", "Cork", "Galway"] },
];

export const FIRST_NAMES = [
  "olivia",
  "liam",
  "emma",
  "noah",
  "ava",
  "lucas",
  "mia",
  "ethan",
  "sofia",
  "leo",
  "chloe",
  "mateo",
  "hannah",
  "arjun",
  "priya",
  "yuki",
  "lena",
  "jonas",
  "marta",
  "diego",
  "amelia",
  "omar",
  "fatima",
  "chen",
  "mei",
  "kofi",
  "ingrid",
  "pierre",
  "camille",
  "rahul",
  "aisha",
  "daniel",
  "sara",
  "tomasz",
  "giulia",
  "erik",
  "nora",
  "felix",
  "isabel",
  "sam",
] as const;

export const LAST_NAMES = [
  "smith",
  "johnson",
  "garcia",
  "muller",
  "schmidt",
  "patel",
  "kim",
  "nguyen",
  "rossi",
  "silva",
  "tanaka",
  "kowalski",
  "dubois",
  "martin",
  "brown",
  "wilson",
  "lee",
  "singh",
  "andersson",
  "jansen",
  "lopez",
  "walker",
  "young",
  "hughes",
  "murphy",
  "okafor",
  "cohen",
  "novak",
  "berg",
  "fischer",
] as const;

export const EMAIL_DOMAINS = [
  "gmail.com",
  "outlook.com",
  "acmecorp.io",
  "brightlane.co",
  "fieldstone.com",
  "hexaware.dev",
  "kitestring.io",
  "mapleleaf.ca",
  "novabank.com",
  "orbitretail.com",
  "quillhq.com",
  "redpine.co.uk",
  "summitsaas.com",
  "tidewater.io",
] as const;

export type Page = { url: string; title: string };

export const PAGES = {
  home: { url: "/", title: `${BRAND}: AI search analytics for growing teams` },
  pricing: { url: "/pricing", title: "Pricing" },
  features: { url: "/features", title: "Features" },
  aiTraffic: { url: "/features/ai-traffic", title: "Track traffic from ChatGPT, Perplexity, Claude and Gemini" },
  attribution: { url: "/features/attribution", title: "Multi-touch attribution" },
  docs: { url: "/docs/getting-started", title: "Docs: Getting started" },
  docsApi: { url: "/docs/api", title: "Docs: Data API" },
  support: { url: "/support", title: "Help center" },
  demo: { url: "/demo", title: "Book a demo" },
  signup: { url: "/signup", title: "Start your free trial" },
  blogAi: { url: "/blog/how-ai-assistants-pick-sources", title: "How AI assistants pick the sources they cite" },
  blogGeo: { url: "/blog/generative-engine-optimization-guide", title: "A practical guide to generative engine optimization" },
  blogFunnel: { url: "/blog/measuring-ai-referral-conversions", title: "Measuring conversions from AI referrals" },
  compare1: { url: "/compare/brightmetric", title: `${BRAND} vs Brightmetric` },
  compare2: { url: "/compare/signalytics", title: `${BRAND} vs Signalytics` },
  compare3: { url: "/compare/datawise", title: `${BRAND} vs Datawise` },
  customers: { url: "/customers", title: "Customer stories" },
} as const satisfies Record<string, Page>;

/** Pages a visitor with a given intent tends to read. */
export const PAGES_BY_INTENT: Record<string, readonly Page[]> = {
  problem_research: [PAGES.blogAi, PAGES.blogGeo, PAGES.blogFunnel, PAGES.features, PAGES.aiTraffic, PAGES.home],
  solution_comparison: [PAGES.compare1, PAGES.compare2, PAGES.compare3, PAGES.features, PAGES.customers, PAGES.pricing],
  brand_search: [PAGES.home, PAGES.features, PAGES.customers, PAGES.pricing, PAGES.demo],
  pricing_research: [PAGES.pricing, PAGES.features, PAGES.attribution, PAGES.customers, PAGES.demo],
  support: [PAGES.support, PAGES.docs, PAGES.docsApi, PAGES.home],
  unknown: [PAGES.home, PAGES.blogAi, PAGES.features, PAGES.pricing, PAGES.docs],
};

/** Queries people put to AI platforms, by topic; `{brand}` and `{competitor}` are filled in. */
export const MENTION_QUERIES = [
  "best tools to track traffic from ChatGPT and Perplexity",
  "how do I measure visitors coming from AI assistants",
  "{brand} vs {competitor} for AI search analytics",
  "alternatives to {competitor}",
  "is {brand} worth it for a small SaaS team",
  "which analytics tool shows AI referral conversions",
  "generative engine optimization tools comparison",
  "how to see if my brand is mentioned by ChatGPT",
  "{brand} pricing",
  "top AI visibility tracking platforms 2026",
  "analytics tool with API for AI traffic data",
  "how accurate is {brand} attribution",
  "track brand mentions in Claude and Gemini answers",
  "what is an AI positioning score",
] as const;

/** Answers that name only the brand (mentions with no competitor). */
export const SOLO_SNIPPETS = {
  positive: [
    "{brand} is built for exactly this: it tracks visitors from AI assistants separately and shows how they convert.",
    "A good fit is {brand}, which reports ChatGPT, Perplexity, Claude and Gemini referrals alongside classic channels.",
  ],
  neutral: [
    "{brand} is one tool that tracks AI referral traffic; check whether its integrations match your stack.",
    "You could look at {brand}, which offers AI-source analytics and a free trial.",
  ],
  negative: [
    "{brand} can do this, though some reviewers find its setup more involved than expected.",
    "{brand} supports it, but its pricing may be high for a one-person team.",
  ],
} as const;

export const SNIPPETS = {
  positive: [
    "{brand} is a strong choice here: it separates AI-referred visitors from organic search and ties them to conversions. {competitors} offer similar dashboards with less detail on AI platforms.",
    "Many teams recommend {brand} for this. It tracks ChatGPT, Perplexity, Claude and Gemini referrals out of the box, which {competitors} cover only in part.",
    "For AI search analytics, {brand} stands out for its clear funnel reports and its Data API. Other options include {competitors}.",
  ],
  neutral: [
    "Options include {competitors} and {brand}. Each tracks referral sources; compare their pricing and integrations for your stack.",
    "{brand} and {competitors} all offer visitor analytics with some AI-source tracking. The right pick depends on team size and budget.",
    "Tools in this space include {brand}, {competitors}. Most offer a free trial, so testing two of them side by side is reasonable.",
  ],
  negative: [
    "{brand} covers AI referrals, but some users report a learning curve; {competitors} may be simpler to set up.",
    "{competitors} are the more established choices. {brand} is newer and has fewer integrations so far.",
    "Reviews of {brand} mention its pricing as a drawback for very small teams compared with {competitors}.",
  ],
} as const;
