// The root layout: global styles, the theme chosen by the user (a cookie read here, so the first
// paint has the right colours without an inline script), and the client providers.
import type { Metadata, Viewport } from "next";
import { cookies } from "next/headers";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import { parseTheme, THEME_COOKIE } from "@/lib/ui/theme";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Workspace Analytics", template: "%s · Workspace Analytics" },
  description: "Visitors, AI mentions, traffic, funnel and AI Positioning Score for your workspace.",
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#f5f6fa" },
    { media: "(prefers-color-scheme: dark)", color: "#0b0f19" },
  ],
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const theme = parseTheme((await cookies()).get(THEME_COOKIE)?.value);
  return (
    <html lang="en" data-theme={theme === "system" ? undefined : theme}>
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
