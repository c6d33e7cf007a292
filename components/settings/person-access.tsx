"use client";

import { Button } from "@/components/ui/button";
import { ConfirmAction } from "./kit/dialogs";
import type { People, Person } from "./use-people";

/** A person's access, changed by another administrator: enable or disable, unlock, reset, remove. */
export function PersonAccess({
  person: u,
  people,
  onReset,
}: {
  person: Person;
  people: People;
  onReset: () => void;
}) {
  const { setDisabled, unlock, remove } = people;
  return (
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
        <ConfirmAction
          verb="Disable"
          name={u.email}
          description="They are signed out everywhere at once and their API tokens are revoked. Enabling them later gives neither back."
          onConfirm={() => setDisabled.mutateAsync({ id: u.id, disabled: true })}
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
        onClick={onReset}
      >
        Reset password
      </Button>
      <ConfirmAction
        verb="Remove"
        name={u.email}
        description="Their account is deleted for good; the runs they started stay."
        onConfirm={() => remove.mutateAsync(u.id)}
      />
    </div>
  );
}
