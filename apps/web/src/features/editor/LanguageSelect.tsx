import { type Language, LanguageSchema } from "@ensemble/protocol";
import { useId } from "react";
import type { PickerLanguage } from "./runtimes";

interface LanguageSelectProps {
  languages: PickerLanguage[];
  language: Language;
  canSwitch: boolean;
  /** Why it cannot switch now (the select's title), when it cannot. */
  disabledReason: string | undefined;
  onChange: (language: Language) => void;
  /** The label is read by assistive technology only (the top bar), or shown (the compact dialog). */
  isLabelShown?: boolean | undefined;
}

/** The session's language picker, labelled Language; a switch reaches everyone. */
export function LanguageSelect(props: LanguageSelectProps) {
  const selectId = useId();
  return (
    <>
      <label htmlFor={selectId} className={props.isLabelShown ? undefined : "visually-hidden"}>
        Language
      </label>
      <select
        id={selectId}
        className="language-select"
        value={props.language}
        disabled={!props.canSwitch}
        title={props.canSwitch ? undefined : props.disabledReason}
        onChange={(event) => {
          const parsed = LanguageSchema.safeParse(event.target.value);
          if (parsed.success) props.onChange(parsed.data);
        }}
      >
        {props.languages.map(({ record }) => (
          <option key={record.id} value={record.id}>
            {record.name}
          </option>
        ))}
      </select>
    </>
  );
}
