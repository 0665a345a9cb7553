import { useEffect, useRef } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { toast } from "react-toastify/unstyled";
import { Spinner } from "../../ui/Spinner";
import { useAuthStore } from "./store";

/** /auth/callback: where the server's OAuth flow lands with `?token=` or `?error=`. */
export function AuthCallbackPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  // StrictMode runs effects twice in development; the token must be consumed once.
  const hasRun = useRef(false);

  useEffect(() => {
    if (hasRun.current) return;
    hasRun.current = true;
    const error = searchParams.get("error");
    const token = searchParams.get("token");

    async function finish() {
      if (error) {
        toast.error(error);
        navigate("/signin", { replace: true });
        return;
      }
      if (!token) {
        toast.error("Authentication failed");
        navigate("/signin", { replace: true });
        return;
      }
      const { setToken, fetchProfile } = useAuthStore.getState();
      setToken(token);
      await fetchProfile();
      // A rejected token has already cleared the store; any other profile failure leaves
      // the token in place and the profile is retried on the next start.
      if (useAuthStore.getState().token) {
        toast.success("Login successful");
        navigate("/code-editor-dashboard", { replace: true });
      } else {
        toast.error("Authentication failed");
        navigate("/signin", { replace: true });
      }
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
