import { Component, type ErrorInfo, type ReactNode } from "react";

interface Props {
  children: ReactNode;
}

interface State {
  hasError: boolean;
  /** Remounts so far; one automatic retry covers a transient failure. */
  attempts: number;
}

const RETRY_DELAY_MS = 2000;

/**
 * Catches a crash of the code editor (or a failed load of its chunk) so the rest of the
 * screen keeps working: shows the spec's message, retries the editor once on its own, and
 * offers a full reload.
 */
export class EditorErrorBoundary extends Component<Props, State> {
  override state: State = { hasError: false, attempts: 0 };
  private retryTimer: ReturnType<typeof setTimeout> | undefined;

  static getDerivedStateFromError(): Partial<State> {
    return { hasError: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error("The code editor crashed", error, info.componentStack);
    if (this.state.attempts >= 1) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.setState((s) => ({ hasError: false, attempts: s.attempts + 1 }));
    }, RETRY_DELAY_MS);
  }

  override componentWillUnmount(): void {
    clearTimeout(this.retryTimer);
  }

  override render() {
    if (!this.state.hasError) return this.props.children;
    return (
      <div className="editor-crash" role="alert">
        <p>Error loading editor. Attempting to recover...</p>
        <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
          Reload Page
        </button>
      </div>
    );
  }
}
