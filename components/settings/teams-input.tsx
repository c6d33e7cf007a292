"use client";

import { useState } from "react";
import { Input } from "@/components/ui/input";

/** A person's teams (names a crew's review block may assign to), saved when the field is left. */
export function TeamsInput({
  email,
  teams,
  onSave,
}: {
  email: string;
  teams: string[];
  onSave: (teams: string[]) => void;
}) {
  const [value, setValue] = useState(teams.join(", "));
  const save = () => {
    const next = [
      ...new Set(
        value
          .split(",")
          .map((t) => t.trim())
          .filter(Boolean),
      ),
    ];
    if (next.join(",") !== teams.join(",")) onSave(next);
  };
  return (
    <Input
      aria-label={`Teams of ${email}`}
      placeholder="No teams"
      title="Teams, separated by commas: e.g. legal, support"
      className="w-40"
      value={value}
      onChange={(e) => setValue(e.target.value)}
      onBlur={save}
      onKeyDown={(e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          save();
        }
      }}
    />
  );
}
