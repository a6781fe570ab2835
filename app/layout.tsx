import type { Metadata } from "next";
import type { ReactNode } from "react";

export const metadata: Metadata = {
  title: { default: "Workspace Analytics", template: "%s · Workspace Analytics" },
  description: "Visitors, AI mentions, traffic, funnel and AI Positioning Score for your workspace.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
