import { useParams } from "react-router-dom";
import { NotFoundPage } from "../../ui/NotFoundPage";
import { DocTopicPage } from "./DocTopicPage";
import { DOC_TOPICS, topicPath } from "./topics";

/**
 * Route `/:topic`: a documentation topic's page, or the 404 page for any other single-segment
 * path. The topics live here, not in the route table, so their text loads only on their pages.
 */
export default function DocTopicRoute() {
  const { topic: slug = "" } = useParams();
  // Route paths match case-insensitively, as the per-topic routes did.
  const topic = DOC_TOPICS.find((t) => topicPath(t.title) === `/${slug.toLowerCase()}`);
  return topic ? <DocTopicPage topic={topic} /> : <NotFoundPage />;
}
