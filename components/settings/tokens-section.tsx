"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import { RelativeTime } from "@/components/ui/relative-time";
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
import { SecretOnce } from "./secret-once";

/** API tokens: created here, shown once with a copy button, listed with last use, revocable. */
export function TokensSection({
  isAdmin,
  canHaveToken,
}: {
  isAdmin: boolean;
  canHaveToken: boolean;
}) {
  const qc = useQueryClient();
  const { data, error } = useQuery({ queryKey: ["tokens"], queryFn: settingsApi.tokens });
  const [kind, setKind] = useState<"org" | "user">(isAdmin ? "org" : "user");
  const [label, setLabel] = useState("");
  const [created, setCreated] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => settingsApi.createToken(kind, label || undefined),
    onSuccess: (r) => {
      setCreated(r.token);
      setLabel("");
      qc.invalidateQueries({ queryKey: ["tokens"] });
    },
  });
  const revoke = useMutation({
    mutationFn: settingsApi.revokeToken,
    onSuccess: () => qc.invalidateQueries({ queryKey: ["tokens"] }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <Card aria-labelledby="tokens-title">
      <CardHeader>
        <div className="grid gap-1">
          <CardTitle id="tokens-title">API tokens</CardTitle>
          <CardDescription>
            Bearer tokens for scripts and CI:{" "}
            <code className="font-mono">Authorization: Bearer …</code>
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4 [&>*]:min-w-0">
        {(isAdmin || canHaveToken) && (
          <form method="post" onSubmit={submit} className="flex flex-wrap items-end gap-3">
            {isAdmin && (
              <Field id="token-kind" label="Kind" className="w-full sm:w-72">
                <Select
                  id="token-kind"
                  value={kind}
                  onChange={(e) => setKind(e.target.value as "org" | "user")}
                >
                  <option value="org">Organization (every crew, every run)</option>
                  <option value="user">Personal (my runs only)</option>
                </Select>
              </Field>
            )}
            <Field id="token-label" label="Label" className="w-full sm:w-64">
              <Input
                id="token-label"
                value={label}
                maxLength={100}
                onChange={(e) => setLabel(e.target.value)}
                placeholder="e.g. CI pipeline"
              />
            </Field>
            <Button type="submit" variant="primary" disabled={create.isPending}>
              {create.isPending ? "Creating…" : "Create token"}
            </Button>
          </form>
        )}
        {create.error && (
          <Alert tone="danger" title="The token was not created">
            {create.error.message}
          </Alert>
        )}
        {created && <SecretOnce secret={created} what="token" testId="new-token" />}
        {error && (
          <Alert tone="danger" title="Tokens could not be loaded">
            {error.message} Reload the page to try again.
          </Alert>
        )}
        {revoke.error && <Alert tone="danger">{revoke.error.message}</Alert>}
        {!data && !error && <Skeleton className="h-24" />}
        {data && data.tokens.length === 0 && (
          <EmptyState icon={KeyRound} title="No tokens yet">
            Create one above to call the API from a script; it is shown once.
          </EmptyState>
        )}
        {data && data.tokens.length > 0 && (
          <Table className="relative" aria-label="API tokens">
            <TableHeader>
              <TableRow>
                <TableHead scope="col">Token</TableHead>
                <TableHead scope="col">Kind</TableHead>
                <TableHead scope="col">Label</TableHead>
                <TableHead scope="col">Created</TableHead>
                <TableHead scope="col">Last used</TableHead>
                <TableHead scope="col">
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.tokens.map((t) => (
                <TableRow key={t.id}>
                  <TableCell>
                    <code className="whitespace-nowrap font-mono text-xs">{t.prefix}</code>
                  </TableCell>
                  <TableCell className="whitespace-nowrap">
                    {t.kind === "org" ? "Organization" : `Personal · ${t.email ?? ""}`}
                  </TableCell>
                  <TableCell>
                    {t.label ?? <span className="text-muted-foreground">—</span>}
                  </TableCell>
                  <TableCell>
                    <RelativeTime iso={t.created_at} />
                  </TableCell>
                  <TableCell>
                    {t.last_used_at ? (
                      <RelativeTime iso={t.last_used_at} />
                    ) : (
                      <span className="text-muted-foreground">Never</span>
                    )}
                  </TableCell>
                  <TableCell className="text-right">
                    {t.revoked_at ? (
                      <Badge tone="neutral">Revoked</Badge>
                    ) : (
                      <ConfirmDialog
                        trigger={
                          <Button size="sm" variant="ghost" aria-label={`Revoke ${t.prefix}`}>
                            Revoke
                          </Button>
                        }
                        title={`Revoke ${t.prefix}?`}
                        description="Scripts using this token get 401 from now on. This cannot be undone."
                        confirmLabel="Revoke token"
                        onConfirm={() => revoke.mutateAsync(t.id).then(() => undefined)}
                      />
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
