import { useState } from "react";
import { Link } from "react-router-dom";
import { DOC_TOPICS, topicPath } from "./topics";
import { useTypingPlaceholder } from "./useTypingPlaceholder";

/** /documentation: the six topic cards with a case-insensitive title filter. */
export function DocumentationPage() {
  const [query, setQuery] = useState("");
  const placeholder = useTypingPlaceholder();
  const needle = query.trim().toLowerCase();
  const topics = DOC_TOPICS.filter((topic) => topic.title.toLowerCase().includes(needle));

  return (
    <div className="page container">
      <header className="page-header">
        <p className="eyebrow">Docs</p>
        <h1>Documentation</h1>
        <p className="muted">Everything you need to start a session, invite your team and ship together.</p>
      </header>
      <div className="field search-field">
        <label htmlFor="docs-search">Search documentation</label>
        <input
          id="docs-search"
          type="search"
          value={query}
          placeholder={placeholder}
          onChange={(event) => setQuery(event.target.value)}
        />
      </div>
      {topics.length === 0 ? (
        <p className="muted" role="status">
          No topics match “{query}”.
        </p>
      ) : (
        <ul className="card-grid card-grid-3 plain-list">
          {topics.map((topic) => {
            const id = `topic${topicPath(topic.title).replace("/", "-")}`;
            return (
              <li key={topic.title}>
                <Link
                  to={topicPath(topic.title)}
                  className="card card-link"
                  aria-labelledby={`${id}-title`}
                  aria-describedby={`${id}-summary`}
                >
                  <h2 id={`${id}-title`}>{topic.title}</h2>
                  <p id={`${id}-summary`}>{topic.summary}</p>
                  <span className="card-more" aria-hidden="true">
                    Read more →
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
