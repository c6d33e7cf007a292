export { CrewCard } from "./crews/crew-card";
