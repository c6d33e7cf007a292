"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { type ConnectionCheck, deploymentsApi } from "@/lib/api/client";
import type { DeploymentFields } from "./deployment-form";
import { useSettingsQuery } from "./kit/use-settings-query";

export type Deployment = Awaited<ReturnType<typeof deploymentsApi.list>>["deployments"][number];

/** The deployments, each one's last connection test, and adding, editing and removing them. */
export function useDeployments() {
  const { query, refresh } = useSettingsQuery(["deployments"], deploymentsApi.list);
  const [checks, setChecks] = useState<Record<string, ConnectionCheck>>({});
  const [formKey, setFormKey] = useState(0);
  const [editing, setEditing] = useState<Deployment | null>(null);
  const test = useMutation({
    mutationFn: deploymentsApi.test,
    onSuccess: (check, slug) => setChecks((c) => ({ ...c, [slug]: check })),
  });
  const create = useMutation({
    mutationFn: (f: DeploymentFields) => deploymentsApi.create(f),
    onSuccess: (d) => {
      setFormKey((k) => k + 1); // a fresh, empty form
      refresh();
      test.mutate(d.slug); // a new deployment is tested at once: most mistakes show here
    },
  });
  const update = useMutation({
    mutationFn: ({ slug, f }: { slug: string; f: DeploymentFields }) =>
      deploymentsApi.update(slug, f),
    onSuccess: (d) => {
      setEditing(null);
      setChecks(({ [d.slug]: _stale, ...rest }) => rest);
      refresh();
      test.mutate(d.slug);
    },
  });
  const remove = useMutation({ mutationFn: deploymentsApi.remove, onSuccess: refresh });
  return { query, checks, formKey, editing, setEditing, test, create, update, remove };
}

export type DeploymentsState = ReturnType<typeof useDeployments>;
