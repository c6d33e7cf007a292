import { Badge } from "@/components/ui/badge";
import type { ToolkitStatus } from "@/lib/tools/builtin/toolkit-status";
import { SettingsSection } from "./kit/section";

/** The built-in tools, with what each uses here or what it still needs (set in the environment). */
export function BuiltinToolsSection({ tools }: { tools: ToolkitStatus[] }) {
  return (
    <SettingsSection
      id="builtin-tools"
      title="Built-in tools"
      description={
        <>
          An agent lists them under <code>tools</code>, by name or by CrewAI's class name. Their
          settings are environment variables (see Built-in tools in docs/tools.md).
        </>
      }
    >
      <ul className="m-0 grid list-none divide-y p-0">
        {tools.map((t) => (
          <li key={t.name} className="grid gap-1 py-3 first:pt-0 last:pb-0">
            <div className="flex flex-wrap items-center gap-2">
              <code className="font-mono font-semibold text-sm">{t.name}</code>
              {t.writes && <Badge tone="warning">Changes things</Badge>}
              <Badge tone={t.ready ? "success" : "warning"} className="ml-auto">
                {t.ready ? "Ready" : "Needs set-up"}
              </Badge>
            </div>
            <p className="m-0 text-sm">{t.summary}</p>
            <p className="m-0 text-muted-foreground text-xs">
              {t.note}
              {t.aliases.length > 0 && <> · CrewAI: {t.aliases.join(", ")}</>}
            </p>
          </li>
        ))}
      </ul>
    </SettingsSection>
  );
}
