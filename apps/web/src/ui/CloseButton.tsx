/** A panel's close button: an ✕ icon, named by `label` for assistive technology. */
export function CloseButton({
  label,
  onClick,
  className = "icon-button",
  size = 16,
}: {
  label: string;
  onClick: () => void;
  className?: string;
  size?: number;
}) {
  return (
    <button type="button" className={className} aria-label={label} onClick={onClick}>
      <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true">
        <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
    </button>
  );
}
