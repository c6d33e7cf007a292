import { TrackerError } from "../errors";
import type { ActionParams } from "../schemas";
import { compact, nonEmpty, parseProjectFields, teamIdList, uuid } from "../validate";
import type { Gql } from "./graphql";
import { type LinearProject, PROJECT, projectView } from "./shapes";
import { teamOf } from "./teams";

// The project actions against Linear.

async function liveProject(gql: Gql, id: string): Promise<LinearProject> {
  const { project } = await gql<{ project: (LinearProject & { trashed?: boolean }) | null }>(
    `query Project($id: String!) { project(id: $id) { ${PROJECT} trashed } }`,
    { id },
  );
  if (!project || project.trashed) throw new TrackerError("not_found", `No project with ID ${id}.`);
  return project;
}

export async function createProject(gql: Gql, p: ActionParams<"create_project">) {
  const teamIds = teamIdList(p.teamIds);
  const { description, state } = parseProjectFields(p);
  const name = nonEmpty("projectName", p.projectName);
  for (const t of teamIds) await teamOf(gql, t);
  const { projectCreate } = await gql<{
    projectCreate: { success: boolean; project: LinearProject };
  }>(
    `mutation ProjectCreate($input: ProjectCreateInput!) { projectCreate(input: $input) { success project { ${PROJECT} } } }`,
    {
      input: compact({ name, description, teamIds, state }),
    },
  );
  return { success: projectCreate.success, project: projectView(projectCreate.project) };
}

export async function updateProject(gql: Gql, p: ActionParams<"update_project">) {
  const id = uuid("projectId", p.projectId);
  const { name, description, state } = parseProjectFields(p);
  await liveProject(gql, id);
  const { projectUpdate } = await gql<{
    projectUpdate: { success: boolean; project: LinearProject };
  }>(
    `mutation ProjectUpdate($id: String!, $input: ProjectUpdateInput!) { projectUpdate(id: $id, input: $input) { success project { ${PROJECT} } } }`,
    {
      id,
      input: compact({ name, description, state }),
    },
  );
  return { success: projectUpdate.success, project: projectView(projectUpdate.project) };
}

export async function getProjectById(gql: Gql, p: ActionParams<"get_project_by_id">) {
  return { project: projectView(await liveProject(gql, uuid("projectId", p.projectId))) };
}

export async function deleteProject(gql: Gql, p: ActionParams<"delete_project">) {
  const id = uuid("projectId", p.projectId);
  await liveProject(gql, id);
  await gql("mutation ProjectDelete($id: String!) { projectDelete(id: $id) { success } }", {
    id,
  });
  return { success: true, projectId: id };
}
