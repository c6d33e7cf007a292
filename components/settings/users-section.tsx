"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ErrorText } from "@/components/error-text";
import { settingsApi } from "@/lib/api/client";
import { ROLES } from "@/lib/auth/roles";

/**
 * People and roles (administrators): add someone with a first password, change roles, disable,
 * remove, reset a password.
 */
export function UsersSection({ me }: { me: string }) {
  const qc = useQueryClient();
  const { data, error } = useQuery({ queryKey: ["users"], queryFn: settingsApi.users });
  const [form, setForm] = useState({ email: "", name: "", password: "", role: "viewer" });
  const create = useMutation({
    mutationFn: () => settingsApi.createUser({ ...form, name: form.name || undefined }),
    onSuccess: () => {
      setForm({ email: "", name: "", password: "", role: "viewer" });
      qc.invalidateQueries({ queryKey: ["users"] });
    },
  });
  const setRole = useMutation({
    mutationFn: ({ id, role }: { id: string; role: string }) => settingsApi.setRole(id, role),
    onSettled: () => qc.invalidateQueries({ queryKey: ["users"] }),
  });
  const setDisabled = useMutation({
    mutationFn: ({ id, disabled }: { id: string; disabled: boolean }) =>
      settingsApi.setDisabled(id, disabled),
    onSettled: () => qc.invalidateQueries({ queryKey: ["users"] }),
  });
  const remove = useMutation({
    mutationFn: settingsApi.removeUser,
    onSettled: () => qc.invalidateQueries({ queryKey: ["users"] }),
  });
  // The person whose password is being reset, and the new one typed so far.
  const [reset, setReset] = useState<{ id: string; email: string; password: string } | null>(null);
  const resetPassword = useMutation({
    mutationFn: (r: { id: string; password: string }) =>
      settingsApi.resetPassword(r.id, r.password),
    onSuccess: () => {
      setReset(null);
      qc.invalidateQueries({ queryKey: ["users"] });
    },
  });
  const failure =
    create.error ??
    setRole.error ??
    setDisabled.error ??
    remove.error ??
    resetPassword.error ??
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
    <section className="card" aria-labelledby="users-title">
      <h2 id="users-title" style={{ marginTop: 0 }}>
        Users and roles
      </h2>
      <p className="muted small">
        Viewers read; operators also start and stop runs; reviewers also approve and send back;
        admins also manage people and tokens. A personal API token can do no more than its owner's
        role. Disabling someone signs them out everywhere and revokes their tokens; removing them
        also deletes the account (their runs stay); a password reset signs them out everywhere.
      </p>
      <form onSubmit={submit} className="inline-form">
        <div>
          <label htmlFor="user-email">New user's email</label>
          <input type="email" required {...field("email")} />
        </div>
        <div>
          <label htmlFor="user-name">Name</label>
          <input {...field("name")} />
        </div>
        <div>
          <label htmlFor="user-password">First password</label>
          <input
            type="password"
            minLength={10}
            required
            autoComplete="new-password"
            {...field("password")}
          />
        </div>
        <div>
          <label htmlFor="user-role">Role</label>
          <select {...field("role")}>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </div>
        <button type="submit" className="primary" disabled={create.isPending}>
          Add user
        </button>
      </form>
      {failure && <ErrorText>{failure.message}</ErrorText>}
      {data && (
        <div className="table-wrap">
          <table aria-label="Users">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Access</th>
              </tr>
            </thead>
            <tbody>
              {data.users.map((u) => (
                <tr key={u.id}>
                  <td>
                    {u.email}
                    {!u.has_password && <span className="badge">API only</span>}
                  </td>
                  <td>{u.name ?? ""}</td>
                  <td>
                    <select
                      aria-label={`Role of ${u.email}`}
                      value={u.role}
                      disabled={u.id === me}
                      onChange={(e) => setRole.mutate({ id: u.id, role: e.target.value })}
                    >
                      {ROLES.map((r) => (
                        <option key={r}>{r}</option>
                      ))}
                    </select>
                  </td>
                  <td>
                    {/* Your own access is changed by another administrator, never by accident. */}
                    {u.id !== me && (
                      <div className="actions">
                        <button
                          type="button"
                          aria-label={`${u.disabled ? "Enable" : "Disable"} ${u.email}`}
                          disabled={setDisabled.isPending}
                          onClick={() => {
                            if (
                              u.disabled ||
                              confirm(`Disable ${u.email}? They are signed out at once.`)
                            )
                              setDisabled.mutate({ id: u.id, disabled: !u.disabled });
                          }}
                        >
                          {u.disabled ? "Enable" : "Disable"}
                        </button>
                        <button
                          type="button"
                          aria-label={`Reset the password of ${u.email}`}
                          onClick={() => setReset({ id: u.id, email: u.email, password: "" })}
                        >
                          Reset password
                        </button>
                        <button
                          type="button"
                          aria-label={`Remove ${u.email}`}
                          disabled={remove.isPending}
                          onClick={() => {
                            if (confirm(`Remove ${u.email} for good? Their runs stay.`))
                              remove.mutate(u.id);
                          }}
                        >
                          Remove
                        </button>
                      </div>
                    )}
                    {u.disabled && <span className="badge">disabled</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {reset && (
        <form
          className="inline-form"
          aria-label="Reset a password"
          onSubmit={(e) => {
            e.preventDefault();
            resetPassword.mutate(reset);
          }}
        >
          <div>
            <label htmlFor="reset-password">New password for {reset.email}</label>
            <input
              id="reset-password"
              type="password"
              minLength={10}
              required
              autoComplete="new-password"
              value={reset.password}
              onChange={(e) => setReset({ ...reset, password: e.target.value })}
            />
          </div>
          <button type="submit" className="primary" disabled={resetPassword.isPending}>
            Set password
          </button>
          <button type="button" onClick={() => setReset(null)}>
            Cancel
          </button>
        </form>
      )}
    </section>
  );
}
