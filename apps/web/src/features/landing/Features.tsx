import { useRef } from "react";
import { useRevealOnce } from "./useRevealOnce";

const TICKED = [
  { title: "Audio Calls", text: "Talk through a bug without switching apps." },
  { title: "Video Calls", text: "See your teammates while you pair, share your screen when words fail." },
  {
    title: "Real-Time Collaboration",
    text: "One codebase, many cursors, zero merge conflicts while you type.",
  },
] as const;

const CARDS = [
  {
    title: "Real-time Collaboration",
    text: "Every keystroke syncs instantly. Concurrent edits merge without losing anyone's work, even after a dropped connection.",
    icon: "M4 12h4l3-8 4 16 3-8h2",
  },
  {
    title: "Syntax Highlighting",
    text: "Readable code in JavaScript, TypeScript, Python, Go, Rust and dozens more languages, with the editor you already know.",
    icon: "M8 6 2 12l6 6M16 6l6 6-6 6",
  },
] as const;

/** 'Unified Platform for Seamless Collaboration': ticked features, illustration and cards. */
export function Features() {
  const imageRef = useRef<HTMLDivElement>(null);
  const isImageRevealed = useRevealOnce(imageRef, 0.5);

  return (
    <section className="section" aria-labelledby="features-title">
      <div className="container">
        <div className="features-grid">
          <div>
            <p className="eyebrow">Why Ensemble</p>
            <h2 id="features-title" className="section-title">
              Unified Platform for Seamless Collaboration
            </h2>
            <ul className="ticks">
              {TICKED.map((item) => (
                <li key={item.title}>
                  <svg className="tick" viewBox="0 0 20 20" width="20" height="20" aria-hidden="true">
                    <circle cx="10" cy="10" r="10" />
                    <path d="m6 10.5 2.5 2.5L14 7.5" fill="none" strokeWidth="2" />
                  </svg>
                  <div>
                    <h3>{item.title}</h3>
                    <p>{item.text}</p>
                  </div>
                </li>
              ))}
            </ul>
          </div>
          <div ref={imageRef} className={`reveal-image${isImageRevealed ? " is-revealed" : ""}`}>
            <img
              src="/images/landing-collab.svg"
              alt="Three collaborators in a call beside a shared code file"
              width="520"
              height="380"
              loading="lazy"
            />
          </div>
        </div>
        <div className="card-grid card-grid-2">
          {CARDS.map((card) => (
            <article key={card.title} className="card">
              <svg className="card-icon" viewBox="0 0 24 24" width="28" height="28" aria-hidden="true">
                <path d={card.icon} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
              </svg>
              <h3>{card.title}</h3>
              <p>{card.text}</p>
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}
