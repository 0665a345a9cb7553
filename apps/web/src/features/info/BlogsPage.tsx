const ARTICLES = [
  {
    title: "How Figma's multiplayer technology works",
    source: "Figma Blog",
    summary:
      "Why Figma chose a server-authoritative model inspired by CRDTs for real-time design collaboration.",
    href: "https://www.figma.com/blog/how-figmas-multiplayer-technology-works/",
  },
  {
    title: "Are CRDTs suitable for shared editing?",
    source: "Kevin Jahns",
    summary: "The author of Yjs measures CRDT performance and memory on real editing traces.",
    href: "https://blog.kevinjahns.de/are-crdts-suitable-for-shared-editing/",
  },
  {
    title: "5000x faster CRDTs: An Adventure in Optimization",
    source: "Joseph Gentle",
    summary: "From a naive CRDT to one that replays a whole paper's editing history in milliseconds.",
    href: "https://josephg.com/blog/crdts-go-brrr/",
  },
  {
    title: "Local-first software: you own your data, in spite of the cloud",
    source: "Ink & Switch",
    summary:
      "Seven ideals for collaboration software that keeps working offline and keeps data in users' hands.",
    href: "https://www.inkandswitch.com/local-first/",
  },
  {
    title: "Establishing a connection: the WebRTC perfect negotiation pattern",
    source: "MDN Web Docs",
    summary: "How two peers renegotiate audio and video without glare, the pattern behind our calls.",
    href: "https://developer.mozilla.org/en-US/docs/Web/API/WebRTC_API/Perfect_negotiation",
  },
] as const;

/** /blogs: a fixed reading list of external articles, each opening in a new tab. */
export function BlogsPage() {
  return (
    <div className="page container narrow">
      <header className="page-header">
        <p className="eyebrow">Reading list</p>
        <h1>Blogs</h1>
        <p className="muted">
          The ideas behind real-time collaborative editing, from the people who built them.
        </p>
      </header>
      <ul className="article-list plain-list">
        {ARTICLES.map((article) => (
          <li key={article.href} className="card">
            <p className="article-source">{article.source}</p>
            <h2>
              <a href={article.href} target="_blank" rel="noopener noreferrer">
                {article.title}
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            </h2>
            <p>{article.summary}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
