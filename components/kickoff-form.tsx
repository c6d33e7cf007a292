export { KickoffForm } from "./crews/kickoff-form";
