import { Button } from "@/components/ui/button";
import { ssoSignInAction } from "@/lib/auth/sso-action";

/** "Sign in with <provider>": a form, so it works before the page's JavaScript has loaded. */
export function SsoButton({ name, next }: { name: string; next: string }) {
  return (
    <form action={ssoSignInAction}>
      <input type="hidden" name="next" value={next} />
      <Button type="submit" variant="primary" className="w-full">
        {`Sign in with ${name}`}
      </Button>
    </form>
  );
}
