/** Where the dashboard and API clients download one of a run's files (output_file). */
export function artifactUrl(crew: string, id: string, name: string) {
  const path = name.split("/").map(encodeURIComponent).join("/");
  return `/api/crews/${encodeURIComponent(crew)}/executions/${id}/artifacts/${path}`;
}
