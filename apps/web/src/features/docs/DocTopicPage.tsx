import { Link } from "react-router-dom";
import type { DocTopic } from "./topics";

/** The page behind one documentation card. */
export function DocTopicPage({ topic }: { topic: DocTopic }) {
  return (
    <article className="page container narrow">
      <Link to="/documentation" className="back-link">
        ← Back to documentation
      </Link>
      <h1>{topic.title}</h1>
      <p className="lead">{topic.summary}</p>
      {topic.sections.map((section) => (
        <section key={section.heading} className="doc-section">
          <h2>{section.heading}</h2>
          <p>{section.body}</p>
        </section>
      ))}
    </article>
  );
}
