import { Fragment } from "react";
import { Badge } from "@/components/ui/badge";
import { Select } from "@/components/ui/input";
import { ROLES } from "@/lib/auth/roles";
import type { Column } from "./kit/data-table";
import { Missing } from "./kit/section";
import { PersonAccess } from "./person-access";
import { TeamsInput } from "./teams-input";
import type { People, Person } from "./use-people";

/** An e-mail cut before its "@" and dots, where it may wrap. */
export const emailParts = (email: string) => email.split(/(?=[@.])/);

/**
 * An e-mail that wraps, when it must, before its "@" and dots — "rosa" / "@example.com" — never
 * one letter from the end.
 */
function EmailText({ email }: { email: string }) {
  const parts = emailParts(email);
  return (
    <span className="min-w-0 break-words">
      {parts.map((p, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {p}
        </Fragment>
      ))}
    </span>
  );
}

export function userColumns(
  me: string,
  people: People,
  onReset: (u: Person) => void,
): Column<Person>[] {
  return [
    {
      header: "Email",
      cell: (u) => (
        <div className="flex flex-wrap items-center gap-1.5">
          <EmailText email={u.email} />
          {u.id === me && <Badge tone="outline">You</Badge>}
          {!u.has_password && <Badge tone="info">API only</Badge>}
          {u.disabled && <Badge tone="neutral">Disabled</Badge>}
        </div>
      ),
    },
    { header: "Name", className: "hidden sm:table-cell", cell: (u) => u.name ?? <Missing /> },
    {
      header: "Role",
      cell: (u) => (
        <Select
          aria-label={`Role of ${u.email}`}
          value={u.role}
          disabled={u.id === me}
          className="w-32"
          onChange={(e) => people.setRole.mutate({ id: u.id, role: e.target.value })}
        >
          {ROLES.map((r) => (
            <option key={r}>{r}</option>
          ))}
        </Select>
      ),
    },
    {
      header: "Teams",
      className: "hidden md:table-cell",
      cell: (u) => (
        <TeamsInput
          email={u.email}
          teams={u.teams}
          onSave={(teams) => people.setTeams.mutate({ id: u.id, teams })}
        />
      ),
    },
    {
      header: "Access",
      hideHeader: true,
      // Your own access is changed by another administrator, never by accident.
      cell: (u) =>
        u.id !== me && <PersonAccess person={u} people={people} onReset={() => onReset(u)} />,
    },
  ];
}
