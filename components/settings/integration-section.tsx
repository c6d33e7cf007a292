"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import { RelativeTime } from "@/components/ui/relative-time";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@/components/ui/table";
import { integrationApi } from "@/lib/api/client";
import { SecretOnce } from "./secret-once";

/** Integration tokens: what agent runtimes outside Crewdeck present to call tracker actions. */
export function IntegrationSection() {
  const qc = useQueryClient();
  const { data, error } = useQuery({
    queryKey: ["integration-tokens"],
    queryFn: integrationApi.tokens,
  });
  const [access, setAccess] = useState<"read" | "write">("write");
  const [label, setLabel] = useState("");
  const [created, setCreated] = useState<string | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: ["integration-tokens"] });
  const create = useMutation({
    mutationFn: () => integrationApi.create(access, label || undefined),
    onSuccess: (r) => {
      setCreated(r.token);
      setLabel("");
      refresh();
    },
  });
  const revoke = useMutation({ mutationFn: integrationApi.revoke, onSuccess: refresh });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  const problem = create.error ?? revoke.error ?? error;
  return (
    <Card aria-labelledby="integration-title">
      <CardHeader>
        <div className="grid gap-1">
          <CardTitle id="integration-title">Integration tokens</CardTitle>
          <CardDescription>
            Agent runtimes outside Crewdeck call{" "}
            <code className="font-mono">/api/integrations/actions</code> with one; a read-only token
            may only get and search.
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4 [&>*]:min-w-0">
        <form method="post" onSubmit={submit} className="flex flex-wrap items-end gap-3">
          <Field id="integration-access" label="Access" className="w-full sm:w-48">
            <Select
              id="integration-access"
              value={access}
              onChange={(e) => setAccess(e.target.value as "read" | "write")}
            >
              <option value="write">Read and write</option>
              <option value="read">Read only</option>
            </Select>
          </Field>
          <Field id="integration-label" label="Integration token label" className="w-full sm:w-64">
            <Input
              id="integration-label"
              value={label}
              maxLength={100}
              onChange={(e) => setLabel(e.target.value)}
              placeholder="e.g. LangGraph worker"
            />
          </Field>
          <Button type="submit" variant="primary" disabled={create.isPending}>
            Create integration token
          </Button>
        </form>
        {created && (
          <SecretOnce secret={created} what="integration token" testId="new-integration-token" />
        )}
        {problem && <Alert tone="danger">{problem.message}</Alert>}
        {data && data.tokens.length === 0 && (
          <p className="text-muted-foreground text-sm">
            No integration tokens yet: agents inside Crewdeck need none.
          </p>
        )}
        {data && data.tokens.length > 0 && (
          <Table className="relative" aria-label="Integration tokens">
            <TableHeader>
              <TableRow>
                <TableHead scope="col">Token</TableHead>
                <TableHead scope="col">Access</TableHead>
                <TableHead scope="col">Label</TableHead>
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
                    {t.access === "read" ? "Read only" : "Read and write"}
                  </TableCell>
                  <TableCell>
                    {t.label ?? <span className="text-muted-foreground">—</span>}
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
                          <Button
                            size="sm"
                            variant="ghost"
                            aria-label={`Revoke integration token ${t.prefix}`}
                          >
                            Revoke
                          </Button>
                        }
                        title={`Revoke ${t.prefix}?`}
                        description="Agents using this token are refused from now on. This cannot be undone."
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
