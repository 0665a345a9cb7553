/** The clear marker over a viewer's editor: it is read-only, and why. */
export function ViewOnlyBanner() {
  return (
    <p className="view-only-banner" role="status" data-testid="view-only">
      <span className="view-only-badge">View only</span>
      You can watch everything live. The host decides who can edit.
    </p>
  );
}
