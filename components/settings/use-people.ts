"use client";

import { useMutation } from "@tanstack/react-query";
import { settingsApi } from "@/lib/api/client";
import { useSettingsQuery } from "./kit/use-settings-query";

export type Person = Awaited<ReturnType<typeof settingsApi.users>>["users"][number];

/** The people list and every change an administrator makes to it, each refreshing the list. */
export function usePeople() {
  const { query, refresh } = useSettingsQuery(["users"], settingsApi.users);
  const create = useMutation({
    mutationFn: (p: { email: string; name: string; password: string; role: string }) =>
      settingsApi.createUser({ ...p, name: p.name || undefined }),
    onSuccess: refresh,
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
  const resetPassword = useMutation({
    mutationFn: (r: { id: string; password: string }) =>
      settingsApi.resetPassword(r.id, r.password),
    onSuccess: refresh,
  });
  const failure =
    create.error ??
    setRole.error ??
    setTeams.error ??
    setDisabled.error ??
    remove.error ??
    unlock.error ??
    query.error;
  return { query, create, setRole, setTeams, setDisabled, remove, unlock, resetPassword, failure };
}

export type People = ReturnType<typeof usePeople>;
