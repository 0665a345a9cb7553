const FEATURES = [
  {
    title: "Real-time collaboration",
    text: "Everyone edits the same code at once, with live cursors and names, and no keystroke is ever lost.",
  },
  {
    title: "Live audio and video calls",
    text: "Talk and see each other right beside the editor, and share your screen when you need to show something.",
  },
  {
    title: "Syntax highlighting",
    text: "Clear, familiar highlighting for the languages you write every day.",
  },
  {
    title: "Real-time sync",
    text: "Changes reach every participant within moments and merge cleanly after a dropped connection.",
  },
  {
    title: "Unified platform",
    text: "Code, run, talk and review pull requests in one place instead of five tools.",
  },
] as const;

/** /About: what Ensemble is for and what it offers. */
export function AboutPage() {
  return (
    <div className="page container">
      <header className="page-header narrow">
        <p className="eyebrow">About</p>
        <h1>About Ensemble</h1>
        <p className="lead">
          Ensemble is a real-time collaborative code editor for developers and teams. Start a session, share
          the link, and write, run and review code together while you talk it through, whether you are pair
          programming, teaching a class or running an interview.
        </p>
      </header>
      <ul className="card-grid card-grid-3 plain-list">
        {FEATURES.map((feature) => (
          <li key={feature.title} className="card">
            <h2>{feature.title}</h2>
            <p>{feature.text}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
