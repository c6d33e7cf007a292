import type { ReactNode } from "react";
import { Brand } from "./brand";
import { MobileNav } from "./mobile-nav";
import { NavLinks } from "./nav-links";
import { UserMenu } from "./user-menu";
import type { ShellUser } from "./user-menu-trigger";

/** The signed-in frame: a sidebar from 1024 px, a top bar with a drawer below that. */
export function AppShell({
  user,
  signOut,
  children,
}: {
  user: ShellUser;
  signOut: () => Promise<void>;
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-dvh">
      {/* The first thing a keyboard reaches: past the navigation, straight to the page. */}
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-primary px-3 py-2 font-medium text-primary-foreground text-sm focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      {/* The column's colour runs the page's whole height; what is in it stays in view. */}
      <div className="hidden w-56 shrink-0 border-r bg-card lg:block">
        <aside className="sticky top-0 flex h-dvh flex-col gap-6 px-3 py-4">
          <div className="px-1.5">
            <Brand />
          </div>
          <nav aria-label="Main" className="flex-1">
            <NavLinks />
          </nav>
          <UserMenu user={user} signOut={signOut} />
        </aside>
      </div>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-40 flex h-14 items-center gap-2 border-b bg-card/95 px-3 backdrop-blur lg:hidden">
          <MobileNav />
          <Brand />
          <div className="ml-auto">
            <UserMenu user={user} signOut={signOut} compact />
          </div>
        </header>
        <main
          id="main"
          tabIndex={-1}
          className="mx-auto w-full outline-none min-w-0 max-w-7xl flex-1 px-4 py-6 sm:px-6 lg:px-8"
        >
          {children}
        </main>
      </div>
    </div>
  );
}
