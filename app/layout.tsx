import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Crewdeck", template: "%s · Crewdeck" },
  description: "Run LLM agent crews on your own servers.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="top">
          <a href="/" className="brand">
            Crewdeck
          </a>
          <nav aria-label="Main">
            <a href="/">Overview</a>
            <a href="/crews">Crews</a>
            <a href="/runs">Runs</a>
            <a href="/inbox">Inbox</a>
            <a href="/tracker">Issues</a>
            <a href="/settings">Settings</a>
            <a href="/docs/api">API</a>
          </nav>
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}
