import type { ComponentProps, ReactNode } from "react";
import { Field } from "./field";
import { Select } from "./input";
import { Options } from "./options";

/** A labelled native select over a list of options. */
export function SelectField({
  id,
  label,
  options,
  ...props
}: ComponentProps<"select"> & {
  id: string;
  label: ReactNode;
  options: readonly { value: string; label: string }[];
}) {
  return (
    <Field id={id} label={label}>
      <Select id={id} {...props}>
        <Options options={options} />
      </Select>
    </Field>
  );
}
