"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@/components/ui/table";
import { settingsApi } from "@/lib/api/client";
import { ROLES } from "@/lib/auth/roles";
import { TeamsInput } from "./teams-input";

const EMPTY = { email: "", name: "", password: "", role: "viewer" };

/**
 * People and roles (administrators): add someone with a first password, change roles, disable,
 * remove, reset a password.
 */
export function UsersSection({ me }: { me: string }) {
  const qc = useQueryClient();
  const { data, error } = useQuery({ queryKey: ["users"], queryFn: settingsApi.users });
  const [form, setForm] = useState(EMPTY);
  const refresh = () => qc.invalidateQueries({ queryKey: ["users"] });
  const create = useMutation({
    mutationFn: () => settingsApi.createUser({ ...form, name: form.name || undefined }),
    onSuccess: () => {
      setForm(EMPTY);
      refresh();
    },
  });
  const setRole = useMutation({
    mutationFn: ({ id, role }: { id: string; role: string }) => settingsApi.setRole(id, role),
    onSettled: refresh,
  });
  const setTeams = useMutation({
    mutationFn: ({ id, teams }: { id: string; teams: string[] }) => settingsApi.setTeams(id, teams),
    onSettled: refresh,
  });
  const setDisabled = useMutation({
    mutationFn: ({ id, disabled }: { id: string; disabled: boolean }) =>
      settingsApi.setDisabled(id, disabled),
    onSettled: refresh,
  });
  const remove = useMutation({ mutationFn: settingsApi.removeUser, onSettled: refresh });
  // Sign-in locks live in the web instance's memory, not in the list: nothing to refresh.
  const unlock = useMutation({ mutationFn: settingsApi.unlockUser });
  // The person whose password is being reset, and the new one typed so far.
  const [reset, setReset] = useState<{ id: string; email: string; password: string } | null>(null);
  const resetPassword = useMutation({
    mutationFn: (r: { id: string; password: string }) =>
      settingsApi.resetPassword(r.id, r.password),
    onSuccess: () => {
      setReset(null);
      refresh();
    },
  });
  const failure =
    create.error ??
    setRole.error ??
    setTeams.error ??
    setDisabled.error ??
    remove.error ??
    unlock.error ??
    error;
  const field = (name: keyof typeof form) => ({
    id: `user-${name}`,
    value: form[name],
    onChange: (e: { target: { value: string } }) =>
      setForm((f) => ({ ...f, [name]: e.target.value })),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <Card aria-labelledby="users-title">
      <CardHeader>
        <div className="grid gap-1">
          <CardTitle id="users-title">People and roles</CardTitle>
          <CardDescription>
            Viewers read; operators also start and stop runs; reviewers also approve and send back;
            admins also manage people and tokens. A personal token can do no more than its
            owner&apos;s role.
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4 [&>*]:min-w-0">
        <form
          method="post"
          onSubmit={submit}
          aria-label="Add a person"
          className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[1.4fr_1fr_1fr_10rem_auto] lg:items-end"
        >
          <Field id="user-email" label="New user's email">
            <Input type="email" required autoComplete="off" {...field("email")} />
          </Field>
          <Field id="user-name" label="Name">
            <Input autoComplete="off" {...field("name")} />
          </Field>
          <Field id="user-password" label="First password">
            <Input
              type="password"
              minLength={10}
              required
              autoComplete="new-password"
              {...field("password")}
            />
          </Field>
          <Field id="user-role" label="Role">
            <Select {...field("role")}>
              {ROLES.map((r) => (
                <option key={r}>{r}</option>
              ))}
            </Select>
          </Field>
          <Button type="submit" variant="primary" disabled={create.isPending}>
            {create.isPending ? "Adding…" : "Add user"}
          </Button>
        </form>
        {unlock.data && (
          <Alert tone="info">
            Sign-in locks of {unlock.data.email} cleared ({unlock.data.locked_pairs} in force) on
            this web instance.
          </Alert>
        )}
        {failure && (
          <Alert tone="danger" title="That did not work">
            {failure.message}
          </Alert>
        )}
        {!data && !error && <Skeleton className="h-32" />}
        {data && (
          <Table className="relative" aria-label="Users" scrollLabel="People, scrolls sideways">
            <TableHeader>
              <TableRow>
                <TableHead scope="col">Email</TableHead>
                <TableHead scope="col" className="hidden sm:table-cell">
                  Name
                </TableHead>
                <TableHead scope="col">Role</TableHead>
                <TableHead scope="col" className="hidden md:table-cell">
                  Teams
                </TableHead>
                <TableHead scope="col">
                  <span className="sr-only">Access</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.users.map((u) => (
                <TableRow key={u.id}>
                  <TableCell>
                    <div className="flex flex-wrap items-center gap-1.5">
                      <span className="break-all">{u.email}</span>
                      {u.id === me && <Badge tone="outline">You</Badge>}
                      {!u.has_password && <Badge tone="info">API only</Badge>}
                      {u.disabled && <Badge tone="neutral">Disabled</Badge>}
                    </div>
                  </TableCell>
                  <TableCell>
                    {u.name ?? <span className="text-muted-foreground">—</span>}
                  </TableCell>
                  <TableCell>
                    <Select
                      aria-label={`Role of ${u.email}`}
                      value={u.role}
                      disabled={u.id === me}
                      className="w-32"
                      onChange={(e) => setRole.mutate({ id: u.id, role: e.target.value })}
                    >
                      {ROLES.map((r) => (
                        <option key={r}>{r}</option>
                      ))}
                    </Select>
                  </TableCell>
                  <TableCell className="hidden md:table-cell">
                    <TeamsInput
                      email={u.email}
                      teams={u.teams}
                      onSave={(teams) => setTeams.mutate({ id: u.id, teams })}
                    />
                  </TableCell>
                  <TableCell>
                    {/* Your own access is changed by another administrator, never by accident. */}
                    {u.id !== me && (
                      <div className="flex justify-end gap-1">
                        {u.disabled ? (
                          <Button
                            size="sm"
                            variant="ghost"
                            aria-label={`Enable ${u.email}`}
                            disabled={setDisabled.isPending}
                            onClick={() => setDisabled.mutate({ id: u.id, disabled: false })}
                          >
                            Enable
                          </Button>
                        ) : (
                          <ConfirmDialog
                            trigger={
                              <Button size="sm" variant="ghost" aria-label={`Disable ${u.email}`}>
                                Disable
                              </Button>
                            }
                            title={`Disable ${u.email}?`}
                            description="They are signed out everywhere at once and their API tokens are revoked. Enabling them later gives neither back."
                            confirmLabel="Disable"
                            onConfirm={() =>
                              setDisabled
                                .mutateAsync({ id: u.id, disabled: true })
                                .then(() => undefined)
                            }
                          />
                        )}
                        <Button
                          size="sm"
                          variant="ghost"
                          aria-label={`Clear the sign-in locks of ${u.email}`}
                          title="Clears the locks that wrong passwords put on this person's sign-in (on this web instance)"
                          disabled={unlock.isPending}
                          onClick={() => unlock.mutate(u.id)}
                        >
                          Unlock
                        </Button>
                        <Button
                          size="sm"
                          variant="ghost"
                          aria-label={`Reset the password of ${u.email}`}
                          onClick={() => setReset({ id: u.id, email: u.email, password: "" })}
                        >
                          Reset password
                        </Button>
                        <ConfirmDialog
                          trigger={
                            <Button size="sm" variant="ghost" aria-label={`Remove ${u.email}`}>
                              Remove
                            </Button>
                          }
                          title={`Remove ${u.email}?`}
                          description="Their account is deleted for good; the runs they started stay."
                          confirmLabel="Remove"
                          onConfirm={() => remove.mutateAsync(u.id).then(() => undefined)}
                        />
                      </div>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
      <Dialog open={reset !== null} onOpenChange={(open) => !open && setReset(null)}>
        {reset && (
          <DialogContent
            title="Reset a password"
            description="They are signed out everywhere; tell them the new password yourself."
          >
            <form
              method="post"
              aria-label="Reset a password"
              className="grid gap-4"
              onSubmit={(e) => {
                e.preventDefault();
                resetPassword.mutate(reset);
              }}
            >
              <Field
                id="reset-password"
                label={`New password for ${reset.email}`}
                help="At least 10 characters."
              >
                <Input
                  id="reset-password"
                  type="password"
                  minLength={10}
                  required
                  autoComplete="new-password"
                  aria-describedby="reset-password-help"
                  value={reset.password}
                  onChange={(e) => setReset({ ...reset, password: e.target.value })}
                />
              </Field>
              {resetPassword.error && <Alert tone="danger">{resetPassword.error.message}</Alert>}
              <DialogFooter>
                <DialogClose asChild>
                  <Button>Cancel</Button>
                </DialogClose>
                <Button type="submit" variant="primary" disabled={resetPassword.isPending}>
                  Set password
                </Button>
              </DialogFooter>
            </form>
          </DialogContent>
        )}
      </Dialog>
    </Card>
  );
}
