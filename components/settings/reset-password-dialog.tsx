import { FormDialog } from "./kit/dialogs";
import { InputField } from "./kit/fields";
import type { People } from "./use-people";

/** The person whose password is being reset, and the new one typed so far. */
export type Reset = { id: string; email: string; password: string };

/** A new password for one person, set by an administrator; open while `reset` is set. */
export function ResetPasswordDialog({
  reset,
  onChange,
  resetPassword,
}: {
  reset: Reset | null;
  onChange: (reset: Reset | null) => void;
  resetPassword: People["resetPassword"];
}) {
  return (
    <FormDialog
      open={reset !== null}
      onClose={() => onChange(null)}
      title="Reset a password"
      description="They are signed out everywhere; tell them the new password yourself."
      onSubmit={() => reset && resetPassword.mutate(reset, { onSuccess: () => onChange(null) })}
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
        onChange={(e) => reset && onChange({ ...reset, password: e.target.value })}
      />
    </FormDialog>
  );
}
