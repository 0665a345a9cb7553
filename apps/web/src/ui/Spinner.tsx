/** A small inline spinner; decorative, so the button text carries the meaning. */
export function Spinner() {
  return <span className="spinner" aria-hidden="true" />;
}
