import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/input";
import { ROLES } from "@/lib/auth/roles";
import { InputField, SettingsForm, SubmitButton, useFields } from "./kit/fields";
import type { People } from "./use-people";

/** Add someone: e-mail, name, a first password and a role; the form empties once they are in. */
export function AddPersonForm({ create }: { create: People["create"] }) {
  const form = useFields("user", { email: "", name: "", password: "", role: "viewer" });
  const roleField = form.bind("role");
  return (
    <SettingsForm
      onSubmit={() => create.mutate(form.values, { onSuccess: form.reset })}
      aria-label="Add a person"
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[1.4fr_1fr_1fr_10rem_auto] lg:items-end"
    >
      <InputField
        label="New user's email"
        type="email"
        required
        autoComplete="off"
        {...form.bind("email")}
      />
      <InputField label="Name" autoComplete="off" {...form.bind("name")} />
      <InputField
        label="First password"
        type="password"
        minLength={10}
        required
        autoComplete="new-password"
        {...form.bind("password")}
      />
      <Field id={roleField.id} label="Role">
        <Select {...roleField}>
          {ROLES.map((r) => (
            <option key={r}>{r}</option>
          ))}
        </Select>
      </Field>
      <SubmitButton busy={create.isPending} busyLabel="Adding…">
        Add user
      </SubmitButton>
    </SettingsForm>
  );
}
