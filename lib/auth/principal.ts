// Who is calling. An organization principal sees every execution; a user principal sees only the
// executions it owns.
export type Principal =
  | { kind: "org"; tokenId: string | null }
  | { kind: "user"; tokenId: string; userId: string; email: string };

export function canSeeExecution(p: Principal, ownerUserId: string | null) {
  return p.kind === "org" || ownerUserId === p.userId;
}
