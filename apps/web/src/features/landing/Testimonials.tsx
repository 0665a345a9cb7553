import { TESTIMONIALS } from "./content";
import { useRotation } from "./useRotation";

const ROTATE_MS = 5000;

/** 'What Our Clients Say': one testimonial at a time, rotating every 5 s (spec §9). */
export function Testimonials() {
  const { index, select } = useRotation(TESTIMONIALS.length, ROTATE_MS);
  const current = TESTIMONIALS[index] ?? TESTIMONIALS[0];
  if (!current) return null;

  return (
    <section className="section" aria-labelledby="testimonials-title">
      <div className="container narrow">
        <p className="eyebrow">Testimonials</p>
        <h2 id="testimonials-title" className="section-title">
          What Our Clients Say
        </h2>
        <figure className="testimonial" key={current.id}>
          <blockquote>
            <p>“{current.content}”</p>
          </blockquote>
          <figcaption>
            <img
              className="testimonial-avatar"
              src={current.image}
              alt={`Portrait of ${current.name}`}
              width="48"
              height="48"
              loading="lazy"
            />
            <span>
              <strong>{current.name}</strong>
              <span className="muted">{current.role}</span>
            </span>
          </figcaption>
        </figure>
        <div className="carousel-controls">
          <button
            type="button"
            className="icon-button"
            aria-label="Previous testimonial"
            onClick={() => select(index - 1)}
          >
            ‹
          </button>
          {TESTIMONIALS.map((t, i) => (
            <button
              key={t.id}
              type="button"
              className="dot"
              aria-label={`Show testimonial ${i + 1} of ${TESTIMONIALS.length}`}
              aria-pressed={i === index}
              onClick={() => select(i)}
            />
          ))}
          <button
            type="button"
            className="icon-button"
            aria-label="Next testimonial"
            onClick={() => select(index + 1)}
          >
            ›
          </button>
        </div>
      </div>
    </section>
  );
}
