export { ReviewPanel } from "./review/review-panel";
