import { LinearClient } from "@linear/sdk";
import type { ActionName, ActionParams } from "../schemas";
import { type Gql, linearGql } from "./graphql";
import {
  archiveIssue,
  createIssue,
  createSubIssue,
  deleteIssue,
  getIssueById,
  getIssueByIdentifier,
  searchIssues,
  updateIssue,
} from "./issues";
import { createProject, deleteProject, getProjectById, updateProject } from "./projects";
import { searchTeams } from "./teams";

// The 13 actions against Linear's GraphQL API through the official SDK, one connection each:
// issues (./issues.ts), projects (./projects.ts), teams (./teams.ts).
/** Each action as a method taking its parameters. */
type LinearActions = { [A in ActionName]: (p: ActionParams<A>) => Promise<unknown> };

export class LinearTracker {
  private readonly gql: Gql;

  constructor({
    apiKey,
    accessToken,
    apiUrl,
  }: { apiKey?: string; accessToken?: string; apiUrl?: string }) {
    this.gql = linearGql(
      new LinearClient(accessToken ? { accessToken, apiUrl } : { apiKey, apiUrl }),
    );
  }

  create_issue(p: ActionParams<"create_issue">) {
    return createIssue(this.gql, p);
  }

  update_issue(p: ActionParams<"update_issue">) {
    return updateIssue(this.gql, p);
  }

  get_issue_by_id(p: ActionParams<"get_issue_by_id">) {
    return getIssueById(this.gql, p);
  }

  get_issue_by_issue_identifier(p: ActionParams<"get_issue_by_issue_identifier">) {
    return getIssueByIdentifier(this.gql, p);
  }

  search_issue(p: ActionParams<"search_issue">) {
    return searchIssues(this.gql, p);
  }

  delete_issue(p: ActionParams<"delete_issue">) {
    return deleteIssue(this.gql, p);
  }

  archive_issue(p: ActionParams<"archive_issue">) {
    return archiveIssue(this.gql, p);
  }

  create_sub_issue(p: ActionParams<"create_sub_issue">) {
    return createSubIssue(this.gql, p);
  }

  create_project(p: ActionParams<"create_project">) {
    return createProject(this.gql, p);
  }

  update_project(p: ActionParams<"update_project">) {
    return updateProject(this.gql, p);
  }

  get_project_by_id(p: ActionParams<"get_project_by_id">) {
    return getProjectById(this.gql, p);
  }

  delete_project(p: ActionParams<"delete_project">) {
    return deleteProject(this.gql, p);
  }

  search_teams(p: ActionParams<"search_teams">) {
    return searchTeams(this.gql, p);
  }

  run<A extends ActionName>(name: A, params: ActionParams<A>): Promise<unknown> {
    const action: LinearActions[A] = this[name];
    return action.call(this, params);
  }
}
