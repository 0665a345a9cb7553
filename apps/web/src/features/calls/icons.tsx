import { StrokeIcon as Icon } from "../../ui/StrokeIcon";

export function MicIcon({ isOff }: { isOff: boolean }) {
  return (
    <Icon>
      <path d="M9 5a3 3 0 0 1 6 0v6a3 3 0 0 1-6 0zM5 11a7 7 0 0 0 14 0M12 18v3" />
      {isOff && <path d="M3 3l18 18" />}
    </Icon>
  );
}

export function CameraIcon({ isOff }: { isOff: boolean }) {
  return (
    <Icon>
      <path d="M3 7h10a2 2 0 0 1 2 2v6a2 2 0 0 1-2 2H3zM15 11l6-4v10l-6-4" />
      {isOff && <path d="M2 3l20 18" />}
    </Icon>
  );
}

export function ScreenIcon() {
  return (
    <Icon>
      <rect x="3" y="4" width="18" height="12" rx="2" />
      <path d="M8 20h8M12 16v4M12 13V7M9 10l3-3 3 3" />
    </Icon>
  );
}

export function ReconnectIcon() {
  return (
    <Icon>
      <path d="M20 11a8 8 0 0 0-14.9-4M4 4v4h4M4 13a8 8 0 0 0 14.9 4M20 20v-4h-4" />
    </Icon>
  );
}

export function PeopleIcon() {
  return (
    <Icon>
      <circle cx="9" cy="8" r="3.2" />
      <path d="M3 20a6 6 0 0 1 12 0M16 5.2a3 3 0 0 1 0 5.6M18 14.5a6 6 0 0 1 3 5.5" />
    </Icon>
  );
}

export function CloseIcon() {
  return (
    <Icon>
      <path d="M6 6l12 12M18 6L6 18" />
    </Icon>
  );
}
