"use client";

import { type Ref, useId } from "react";
import { cn } from "@/components/ui/cn";
import { Field, fieldAria } from "@/components/ui/field";
import { Checkbox, Input, Select, Textarea } from "@/components/ui/input";
import {
  controlOf,
  enumValue,
  type Property,
  propertiesOf,
  type ResponseValues,
  ratingChoices,
  requiredOf,
  typeOf,
} from "./response-values";

type Answer = {
  id: string;
  name: string;
  p: Property;
  label: string;
  error: string | undefined;
  required: boolean;
  value: unknown;
  set: (name: string, value: unknown) => void;
};

/**
 * The form a task's review asks the reviewer to fill in (its review.response_schema): a rating
 * as a row of choices, enums as a select, text, numbers and yes/no — a flat object's properties.
 */
export function ResponseForm({
  ref,
  schema,
  values,
  onChange,
  disabled,
  errors = [],
}: {
  /** The fieldset: where a refused approval looks for the field to focus. */
  ref?: Ref<HTMLFieldSetElement>;
  schema: Record<string, unknown>;
  values: ResponseValues;
  onChange: (values: ResponseValues) => void;
  disabled?: boolean;
  errors?: string[];
}) {
  const base = useId();
  const required = requiredOf(schema);
  const set = (name: string, value: unknown) => onChange({ ...values, [name]: value });
  return (
    <fieldset
      ref={ref}
      data-response-form
      className="grid gap-3 rounded-lg border p-3"
      disabled={disabled}
    >
      <legend className="px-1 font-medium text-sm">Your assessment</legend>
      {propertiesOf(schema).map(([name, p]) => {
        const label = p.title ?? name;
        const answer: Answer = {
          id: `${base}-${name}`,
          name,
          p,
          label,
          error: errors.includes(label) ? "Required to approve" : undefined,
          required: required.has(name),
          value: values[name],
          set,
        };
        const choices = ratingChoices(p);
        if (choices) return <RatingField key={name} {...answer} choices={choices} />;
        if (typeOf(p) === "boolean") return <YesNoField key={name} {...answer} />;
        return <AnswerField key={name} {...answer} />;
      })}
    </fieldset>
  );
}

function RatingField({
  id,
  name,
  p,
  label,
  error,
  required,
  value,
  set,
  choices,
}: Answer & { choices: number[] }) {
  return (
    <fieldset className="grid gap-1.5">
      <legend className="mb-1.5 font-medium text-sm">
        {label}
        {required && (
          <span aria-hidden className="ml-0.5 text-muted-foreground">
            *
          </span>
        )}
      </legend>
      <div className="flex flex-wrap gap-1.5">
        {choices.map((n) => (
          <label
            key={n}
            className={cn(
              "flex size-9 cursor-pointer items-center justify-center rounded-md border text-sm tabular-nums has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring",
              value === n
                ? "border-primary bg-primary text-primary-foreground"
                : "bg-background hover:bg-muted",
            )}
          >
            <input
              type="radio"
              className="sr-only"
              name={id}
              value={n}
              checked={value === n}
              aria-invalid={error ? true : undefined}
              onChange={() => set(name, n)}
            />
            {n}
          </label>
        ))}
      </div>
      {p.description && <p className="text-muted-foreground text-xs">{p.description}</p>}
      {error && <p className="text-tone-danger-foreground text-xs">{error}</p>}
    </fieldset>
  );
}

function YesNoField({ id, name, p, label, value, set }: Answer) {
  return (
    <label htmlFor={id} className="flex items-center gap-2 text-sm">
      <Checkbox
        id={id}
        checked={value === true}
        onChange={(e) => set(name, e.target.checked)}
        aria-describedby={p.description ? `${id}-help` : undefined}
      />
      {label}
    </label>
  );
}

function AnswerField({ id, name, p, label, error, required, value, set }: Answer) {
  const aria = fieldAria(id, { help: p.description, error });
  const type = typeOf(p);
  const text = typeof value === "string" ? value : "";
  const control = controlOf(p);
  return (
    <Field id={id} label={label} help={p.description} error={error} required={required}>
      {control === "enum" ? (
        <Select
          {...aria}
          value={value === undefined ? "" : String(value)}
          onChange={(e) => set(name, enumValue(p, e.target.value))}
        >
          <option value="">Choose…</option>
          {p.enum?.map((v) => (
            <option key={String(v)} value={String(v)}>
              {String(v)}
            </option>
          ))}
        </Select>
      ) : control === "number" ? (
        <Input
          {...aria}
          type="number"
          inputMode={type === "integer" ? "numeric" : "decimal"}
          min={p.minimum}
          max={p.maximum}
          step={type === "integer" ? 1 : "any"}
          value={value === undefined ? "" : String(value)}
          onChange={(e) => set(name, e.target.value === "" ? undefined : Number(e.target.value))}
        />
      ) : control === "textarea" ? (
        <Textarea
          {...aria}
          rows={2}
          value={text}
          onChange={(e) => set(name, e.target.value || undefined)}
        />
      ) : (
        <Input {...aria} value={text} onChange={(e) => set(name, e.target.value || undefined)} />
      )}
    </Field>
  );
}
