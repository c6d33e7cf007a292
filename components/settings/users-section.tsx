"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { ErrorText } from "@/components/error-text";
import { settingsApi } from "@/lib/api/client";
import { ROLES } from "@/lib/auth/roles";

/** People and roles (administrators): add someone with a first password, change roles. */
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
        admins also manage people and tokens.
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
      {(create.error || setRole.error || error) && (
        <ErrorText>{(create.error ?? setRole.error ?? error)?.message}</ErrorText>
      )}
      {data && (
        <div className="table-wrap">
          <table aria-label="Users">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
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
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
