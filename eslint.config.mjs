// Lint: Next's recommended rules (core web vitals + TypeScript).
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: ["node_modules/**", ".next/**", ".next-*/**", "test-results/**", "playwright-report/**", "bench-results/**", "next-env.d.ts"],
  },
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The sandbox is the independent reference the app is tested against: its sources must not
    // import the app (sandbox/independence.test.ts checks the same, dynamic imports included).
    files: ["sandbox/**/*.ts"],
    ignores: ["sandbox/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(@/(?!sandbox/)|\\.\\./(?!sandbox/))",
              message: "The sandbox keeps its own definitions of the Data API (sandbox/contract.ts); it must not import the app.",
            },
          ],
        },
      ],
    },
  },
];

export default config;
