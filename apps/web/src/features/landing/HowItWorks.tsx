import { useRef } from "react";
import { STEPS, type Step } from "./content";
import { useRevealOnce } from "./useRevealOnce";

function TimelineStep({ step, number }: { step: Step; number: number }) {
  const ref = useRef<HTMLLIElement>(null);
  const isRevealed = useRevealOnce(ref, 0.5);
  return (
    <li ref={ref} className={`timeline-step${isRevealed ? " is-revealed" : ""}`}>
      <span className="timeline-number" aria-hidden="true">
        {number}
      </span>
      <div className="timeline-body">
        <h3>{step.title}</h3>
        <p>{step.text}</p>
      </div>
    </li>
  );
}

/** 'How it Works': the four steps, each revealed once when half in view. */
export function HowItWorks() {
  return (
    <section className="section section-alt" aria-labelledby="how-title">
      <div className="container narrow">
        <p className="eyebrow">Four steps</p>
        <h2 id="how-title" className="section-title">
          How it Works
        </h2>
        <ol className="timeline">
          {STEPS.map((step, i) => (
            <TimelineStep key={step.title} step={step} number={i + 1} />
          ))}
        </ol>
      </div>
    </section>
  );
}
