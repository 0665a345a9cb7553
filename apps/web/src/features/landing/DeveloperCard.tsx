import { DEVELOPER } from "./content";

/** 'Meet the Developer'; CSS hides it below 768px, as the spec shows it on medium screens up. */
export function DeveloperCard() {
  return (
    <section className="section developer-section" aria-labelledby="developer-title">
      <div className="container narrow">
        <h2 id="developer-title" className="section-title">
          Meet the Developer
        </h2>
        <article className="card developer-card">
          <img
            src={DEVELOPER.image}
            alt={`Illustrated portrait of ${DEVELOPER.name}`}
            width="120"
            height="120"
            loading="lazy"
          />
          <div>
            <h3>{DEVELOPER.name}</h3>
            <p className="developer-role">{DEVELOPER.role}</p>
            <p>{DEVELOPER.bio}</p>
          </div>
        </article>
      </div>
    </section>
  );
}
