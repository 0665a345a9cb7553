import "react-toastify/ReactToastify.css";
import "../styles/toasts.css";
import { Slide, ToastContainer } from "react-toastify/unstyled";

/** react-toastify's container with its sheet and then ours, so ours win over its defaults. */
export default function StyledToastContainer() {
  return <ToastContainer position="top-right" autoClose={5000} theme="dark" transition={Slide} />;
}
