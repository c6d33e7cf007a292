"use client";

import { Fragment, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/input";
import { ROLES } from "@/lib/auth/roles";
import { type Column, DataTable } from "./kit/data-table";
import { FormDialog } from "./kit/dialogs";
import { InputField, SettingsForm, SubmitButton, useFields } from "./kit/fields";
import { Loading, Missing, Problem, SettingsSection } from "./kit/section";
import { PersonAccess } from "./person-access";
import { TeamsInput } from "./teams-input";
import { type People, type Person, usePeople } from "./use-people";

/**
 * People and roles (administrators): add someone with a first password, change roles, disable,
 * remove, reset a password.
 */
export function UsersSection({ me }: { me: string }) {
  const people = usePeople();
  const { query, create, unlock, resetPassword } = people;
  const form = useFields("user", { email: "", name: "", password: "", role: "viewer" });
  // The person whose password is being reset, and the new one typed so far.
  const [reset, setReset] = useState<{ id: string; email: string; password: string } | null>(null);
  const roleField = form.bind("role");
  return (
    <SettingsSection
      id="users"
      title="People and roles"
      description="Viewers read; operators also start and stop runs; reviewers also approve and send back; admins also manage people and tokens. A personal token can do no more than its owner's role."
    >
      <SettingsForm
        onSubmit={() => create.mutate(form.values, { onSuccess: form.reset })}
        aria-label="Add a person"
        className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[1.4fr_1fr_1fr_10rem_auto] lg:items-end"
      >
        <InputField
          label="New user's email"
          type="email"
          required
          autoComplete="off"
          {...form.bind("email")}
        />
        <InputField label="Name" autoComplete="off" {...form.bind("name")} />
        <InputField
          label="First password"
          type="password"
          minLength={10}
          required
          autoComplete="new-password"
          {...form.bind("password")}
        />
        <Field id={roleField.id} label="Role">
          <Select {...roleField}>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </Select>
        </Field>
        <SubmitButton busy={create.isPending} busyLabel="Adding…">
          Add user
        </SubmitButton>
      </SettingsForm>
      {unlock.data && (
        <Alert tone="info">
          Sign-in locks of {unlock.data.email} cleared ({unlock.data.locked_pairs} in force) on this
          web instance.
        </Alert>
      )}
      <Problem errors={[people.failure]} title="That did not work" />
      <Loading query={query} className="h-32" />
      {query.data && (
        <DataTable
          label="Users"
          scrollLabel="People, scrolls sideways"
          columns={columns(me, people, (u) => setReset({ id: u.id, email: u.email, password: "" }))}
          rows={query.data.users}
          rowKey={(u) => u.id}
        />
      )}
      <FormDialog
        open={reset !== null}
        onClose={() => setReset(null)}
        title="Reset a password"
        description="They are signed out everywhere; tell them the new password yourself."
        onSubmit={() => reset && resetPassword.mutate(reset, { onSuccess: () => setReset(null) })}
        submitLabel="Set password"
        busy={resetPassword.isPending}
        error={resetPassword.error}
      >
        <InputField
          id="reset-password"
          label={`New password for ${reset?.email ?? ""}`}
          help="At least 10 characters."
          type="password"
          minLength={10}
          required
          autoComplete="new-password"
          value={reset?.password ?? ""}
          onChange={(e) => reset && setReset({ ...reset, password: e.target.value })}
        />
      </FormDialog>
    </SettingsSection>
  );
}

/**
 * An e-mail that wraps, when it must, before its "@" and dots — "rosa" / "@example.com" — never
 * one letter from the end.
 */
function EmailText({ email }: { email: string }) {
  const parts = email.split(/(?=[@.])/);
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

function columns(me: string, people: People, onReset: (u: Person) => void): Column<Person>[] {
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
