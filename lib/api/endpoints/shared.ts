import type { z } from "zod";
import { type Access, type BodySpec, endpoint, type Reply } from "./endpoint";
import type { Tag } from "./tags";

// What several areas' endpoints say alike. Not an area: it exports no endpoint.

/** A crew's own endpoints sit under its base URL. */
export const BASE = "/api/crews/{crew}";
export const read = { action: "read" } as const;
export const start = { action: "start" } as const;
export const review = { action: "review" } as const;
export const manage = { action: "manage" } as const;
export const admin = { action: "admin" } as const;
export const noCrew = { 404: "No such crew." };
export const malformed = "Malformed JSON or wrong value types.";
/** An execution a user token did not start is as unknown to it as one that never was. */
export const unseenExecution = {
  404: "Unknown execution, not a UUID, or not visible to this token.",
};
export const INVALID_BODY = {
  400: "Malformed JSON or not an object.",
  413: "Body too large.",
  422: "Invalid fields (`errors`).",
};

/** What each endpoint says of itself, at its declaration. */
type Named = { operationId: string; summary: string; description?: string };

/**
 * A crew's collection of records at `path`, each at `{path}/{id}` parsed by `params`: the list,
 * create, read, change and delete endpoints all such have, with the access and problems they share.
 * `item` and `missing` serve the collection's other endpoints on one record.
 */
export function crewCollection<const Path extends string, PS extends { id: z.ZodType }>(
  path: Path,
  { tag, params, notFound }: { tag: Tag; params: PS; notFound: string },
) {
  const item = `${path}/{id}` as const;
  const missing = { 404: notFound };
  return {
    item,
    params,
    missing,
    list: ({ order, schema, ...named }: Named & { order: string; schema: z.ZodType }) =>
      endpoint({
        method: "GET",
        path,
        tag,
        ...named,
        access: read,
        responses: { 200: { description: order, schema } },
        problems: noCrew,
      }),
    /** `problems`: beyond a malformed body (400) and no such crew (404). */
    create: <S extends z.ZodType>({
      body,
      responses,
      problems,
      ...named
    }: Named & { body: S; responses: Record<number, Reply>; problems: Record<number, string> }) =>
      endpoint({
        method: "POST",
        path,
        tag,
        ...named,
        access: start,
        body: { schema: body },
        responses,
        problems: { 400: malformed, ...noCrew, ...problems },
      }),
    get: ({ schema, ...named }: Named & { schema: z.ZodType }) =>
      endpoint({
        method: "GET",
        path: item,
        tag,
        ...named,
        access: read,
        params,
        responses: { 200: { description: "OK", schema } },
        problems: missing,
      }),
    /** `invalid`: the 422's reason. */
    update: <S extends z.ZodType>({
      body,
      schema,
      invalid,
      ...named
    }: Named & { body: S; schema: z.ZodType; invalid: string }) =>
      endpoint({
        method: "PATCH",
        path: item,
        tag,
        ...named,
        access: start,
        params,
        body: { schema: body },
        responses: { 200: { description: "Changed.", schema } },
        problems: { 400: malformed, ...missing, 422: invalid },
      }),
    remove: (named: Named) =>
      endpoint({
        method: "DELETE",
        path: item,
        tag,
        ...named,
        access: start,
        params,
        responses: { 204: { description: "Deleted." } },
        problems: missing,
      }),
  };
}

/**
 * A setting read and replaced at one path under one access: the GET answers its `view`, the PUT
 * takes a body (refused as INVALID_BODY says, unless `problems` says otherwise) and answers the
 * view it saved.
 */
export function setting<const Path extends string, A extends Access>(
  path: Path,
  { tag, access, view }: { tag: Tag; access: A; view: z.ZodType },
) {
  return {
    /** `reply`: the answer's description ("OK" unless said). */
    get: ({ reply = "OK", ...named }: Named & { reply?: string }) =>
      endpoint({
        method: "GET",
        path,
        tag,
        ...named,
        access,
        responses: { 200: { description: reply, schema: view } },
      }),
    /** `reply`: the answer's description ("Saved." unless said). */
    save: <B extends BodySpec>({
      body,
      reply = "Saved.",
      problems,
      ...named
    }: Named & { body: B; reply?: string; problems?: Record<number, string> }) =>
      endpoint({
        method: "PUT",
        path,
        tag,
        ...named,
        access,
        body,
        responses: { 200: { description: reply, schema: view } },
        problems: { ...INVALID_BODY, ...problems },
      }),
  };
}
