import { CopyButton } from "@/components/ui/copy-button";
import { InputField, SettingsForm, SubmitButton, type useFields } from "./kit/fields";

/** The OAuth application's client ID and secret, with the redirect URL to register in Linear. */
export function LinearAppForm({
  redirectUri,
  app,
  busy,
  onSubmit,
}: {
  redirectUri: string;
  app: ReturnType<typeof useFields<{ client_id: string; client_secret: string }>>;
  busy: boolean;
  onSubmit: () => void;
}) {
  return (
    <SettingsForm onSubmit={onSubmit} aria-label="Linear OAuth application" className="grid gap-3">
      <p className="text-muted-foreground text-sm">
        Create an OAuth application in Linear (Settings → API → OAuth applications) with the
        redirect URL <code className="break-all font-mono">{redirectUri}</code>{" "}
        <CopyButton text={redirectUri} what="redirect URL" />, then paste its client ID and secret.
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <InputField label="Client ID" autoComplete="off" required {...app.bind("client_id")} />
        <InputField
          label="Client secret"
          type="password"
          autoComplete="off"
          required
          {...app.bind("client_secret")}
        />
      </div>
      <div>
        <SubmitButton busy={busy}>Save OAuth application</SubmitButton>
      </div>
    </SettingsForm>
  );
}
