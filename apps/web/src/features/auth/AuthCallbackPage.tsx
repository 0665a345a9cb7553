import { oauthErrorMessage } from "@ensemble/protocol";
import { useEffect, useRef } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { toast } from "react-toastify/unstyled";
import { Spinner } from "../../ui/Spinner";
import { useAuthStore } from "./store";

/**
 * /auth/callback: where the server's GitHub login lands, with `?code=` (a one-time code that
 * only this browser, holding the flow's state cookie, can exchange) or `?error=` (a code we
 * show our own message for). A `?token=` signs nobody in: a link could carry someone else's.
 */
export function AuthCallbackPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  // StrictMode runs effects twice in development; the code can be exchanged once.
  const hasRun = useRef(false);

  useEffect(() => {
    if (hasRun.current) return;
    hasRun.current = true;
    const error = searchParams.get("error");
    const code = searchParams.get("code");

    async function finish() {
      const failure = error === null ? null : oauthErrorMessage(error);
      const result = failure === null && code ? await useAuthStore.getState().exchangeGithubCode(code) : null;
      if (result?.ok) {
        toast.success("Login successful");
        navigate("/code-editor-dashboard", { replace: true });
        return;
      }
      toast.error(failure ?? result?.message ?? "Authentication failed");
      navigate("/signin", { replace: true });
    }
    void finish();
  }, [searchParams, navigate]);

  return (
    <div className="page container center-page">
      <h1 className="visually-hidden">Signing you in</h1>
      <p className="muted" role="status">
        <Spinner /> Signing you in…
      </p>
    </div>
  );
}
