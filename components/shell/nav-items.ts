import {
  Bot,
  Inbox,
  LayoutDashboard,
  ListChecks,
  type LucideIcon,
  PlayCircle,
  Settings,
} from "lucide-react";

export type NavItem = { href: string; label: string; icon: LucideIcon };

// The dashboard's sections, in the order of a day's work.
export const NAV_ITEMS: NavItem[] = [
  { href: "/", label: "Overview", icon: LayoutDashboard },
  { href: "/inbox", label: "Inbox", icon: Inbox },
  { href: "/runs", label: "Runs", icon: PlayCircle },
  { href: "/crews", label: "Crews", icon: Bot },
  { href: "/tracker", label: "Issues", icon: ListChecks },
  { href: "/settings", label: "Settings", icon: Settings },
];

/** The section a path belongs to: "/" only for itself, the others for their subtree too. */
export function isCurrent(href: string, pathname: string) {
  return href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
}
