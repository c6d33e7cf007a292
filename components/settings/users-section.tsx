"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { AddPersonForm } from "./add-person-form";
import { DataTable } from "./kit/data-table";
import { Loading, Problem, SettingsSection } from "./kit/section";
import { type Reset, ResetPasswordDialog } from "./reset-password-dialog";
import { usePeople } from "./use-people";
import { userColumns } from "./user-columns";

/**
 * People and roles (administrators): add someone with a first password, change roles, disable,
 * remove, reset a password.
 */
export function UsersSection({ me }: { me: string }) {
  const people = usePeople();
  const { query, create, unlock, resetPassword } = people;
  const [reset, setReset] = useState<Reset | null>(null);
  return (
    <SettingsSection
      id="users"
      title="People and roles"
      description="Viewers read; operators also start and stop runs; reviewers also approve and send back; admins also manage people and tokens. A personal token can do no more than its owner's role."
    >
      <AddPersonForm create={create} />
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
          columns={userColumns(me, people, (u) =>
            setReset({ id: u.id, email: u.email, password: "" }),
          )}
          rows={query.data.users}
          rowKey={(u) => u.id}
        />
      )}
      <ResetPasswordDialog reset={reset} onChange={setReset} resetPassword={resetPassword} />
    </SettingsSection>
  );
}
