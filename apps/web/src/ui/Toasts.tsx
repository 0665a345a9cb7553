import "react-toastify/ReactToastify.css";
import "../styles/toasts.css";
import { Slide, ToastContainer } from "react-toastify/unstyled";

/**
 * The toast container with its styles, loaded after the first render: react-toastify queues
 * any toast raised before a container mounts and shows it once this one does.
 */
export default function Toasts() {
  return <ToastContainer position="top-right" autoClose={5000} theme="dark" transition={Slide} />;
}
