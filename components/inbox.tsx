export { Inbox } from "./inbox/inbox";
